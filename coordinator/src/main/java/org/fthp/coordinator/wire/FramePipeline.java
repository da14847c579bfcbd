package org.fthp.coordinator.wire;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;

/** Installs the framing and message codec, identical on both ends of every coordinator connection. */
public final class FramePipeline {
    private FramePipeline() {
    }

    public static void install(ChannelPipeline pipeline) {
        // failFast: an oversized (or negative) length prefix is rejected as soon as it is read, without first
        // buffering up to 64 KiB of whatever follows it.
        pipeline.addLast("frameDecoder",
                new LengthFieldBasedFrameDecoder(MessageCodec.MAX_FRAME_BYTES, 0, 4, 0, 4, true));
        pipeline.addLast("messageDecoder", new MessageDecoder());
        pipeline.addLast("messageEncoder", new MessageEncoder());
    }
}
