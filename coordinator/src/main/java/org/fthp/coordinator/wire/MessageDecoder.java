package org.fthp.coordinator.wire;

import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;

/** Turns one length-stripped frame into one {@link Message}; a bad frame surfaces as exceptionCaught downstream. */
final class MessageDecoder extends MessageToMessageDecoder<ByteBuf> {
    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) throws MalformedFrameException {
        out.add(MessageCodec.decode(frame));
    }
}
