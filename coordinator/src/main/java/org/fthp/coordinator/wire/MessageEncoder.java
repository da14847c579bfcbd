package org.fthp.coordinator.wire;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.MessageToByteEncoder;

/** Writes {@code [int length][byte type][payload]}; refuses to emit a frame the receiving side would reject. */
final class MessageEncoder extends MessageToByteEncoder<Message> {
    MessageEncoder() {
        super(Message.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Message msg, ByteBuf out) {
        int start = out.writerIndex();
        out.writeInt(0); // patched below once the body length is known
        MessageCodec.encode(msg, out);
        int bodyLength = out.writerIndex() - start - 4;
        if (bodyLength + 4 > MessageCodec.MAX_FRAME_BYTES) {
            throw new EncoderException(msg.type() + " frame of " + (bodyLength + 4) + " bytes exceeds "
                    + MessageCodec.MAX_FRAME_BYTES);
        }
        out.setInt(start, bodyLength);
    }
}
