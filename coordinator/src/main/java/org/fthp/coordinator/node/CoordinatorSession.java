package org.fthp.coordinator.node;

import java.util.logging.Level;
import java.util.logging.Logger;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.fthp.coordinator.checkpoint.ChunkAssembler;
import org.fthp.coordinator.wire.Message;
import org.fthp.coordinator.wire.PeerAuthenticated;
import org.fthp.coordinator.wire.PeerRole;

/**
 * Server-side state machine of one accepted connection, after {@code ServerAuthHandler} has let it through:
 * the first message must be the registration matching the authenticated role, after which a process may only say
 * PROCESS_DONE and a child coordinator may only send FAILURE_REPORTs, UNOWNED_PIDs and PROCESSES_DONE. Anything else closes the
 * connection — a peer that knows the secret but misbehaves is a bug, and dropping it is safer than guessing.
 */
final class CoordinatorSession extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = Logger.getLogger(CoordinatorSession.class.getName());

    private enum State { AWAIT_AUTH, AWAIT_REGISTER, PROCESS, COORDINATOR, PEER, DONE }

    private final NodeCoordinator node;
    private State state = State.AWAIT_AUTH;
    private PeerRole role;
    /** Checkpoint pieces arriving on this connection, chunk by chunk. */
    private final ChunkAssembler inbox = new ChunkAssembler();

    CoordinatorSession(NodeCoordinator node) {
        this.node = node;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof PeerAuthenticated auth && state == State.AWAIT_AUTH) {
            role = auth.role();
            state = State.AWAIT_REGISTER;
        } else {
            ctx.fireUserEventTriggered(evt);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Message m = (Message) msg;
        switch (state) {
            case AWAIT_REGISTER -> {
                if (role == PeerRole.PROCESS && m instanceof Message.RegisterProcess r) {
                    state = State.PROCESS;
                    node.processRegistered(ctx.channel(),
                            new LocalProcess(r.pid(), r.nativeRank(), r.logicalRank(), r.role()));
                } else if (role == PeerRole.COORDINATOR && m instanceof Message.RegisterPeer r) {
                    if (node.peerRegistered(ctx.channel(), r.nodeId())) {
                        state = State.PEER;
                    } else {
                        drop(ctx, "node " + r.nodeId() + " cannot open a data link here");
                    }
                } else if (role == PeerRole.COORDINATOR && m instanceof Message.RegisterCoordinator r) {
                    if (node.childRegistered(ctx.channel(), r.nodeId())) {
                        state = State.COORDINATOR;
                    } else {
                        drop(ctx, "node " + r.nodeId() + " is not a child of this node");
                    }
                } else {
                    drop(ctx, role + " sent " + m.type() + " instead of registering");
                }
            }
            case PROCESS -> {
                if (m instanceof Message.ProcessDone) {
                    state = State.DONE;
                    node.processDone(ctx.channel());
                } else if (m instanceof Message.PiecePut p) {
                    node.checkpoints().put(ctx.channel(), inbox, p.chunk(), true);
                } else if (m instanceof Message.PieceGet g) {
                    node.checkpoints().get(ctx.channel(), g, true);
                } else if (m instanceof Message.PieceShared p) {
                    node.checkpoints().putShared(ctx.channel(), p);
                } else if (m instanceof Message.PieceGetShared g) {
                    node.checkpoints().getShared(ctx.channel(), g);
                } else if (m instanceof Message.CheckpointCost c) {
                    node.checkpoints().cost(c);
                } else if (m instanceof Message.ProgramEnded e) {
                    node.programEnded(ctx.channel(), e);
                } else if (m instanceof Message.ProcessState s) {
                    node.toPrimary(s);
                } else if (m instanceof Message.SdcDetected d) {
                    node.sdcDetected(d);
                } else {
                    drop(ctx, "process sent " + m.type());
                }
            }
            case COORDINATOR -> {
                if (m instanceof Message.FailureReport r) {
                    node.failuresReported(r.failed());
                } else if (m instanceof Message.UnownedPid u) {
                    node.unownedPidReported(u.pid(), u.nodeId());
                } else if (m instanceof Message.ProcessesDone d) {
                    node.processesDone(d.nativeRanks());
                } else if (m instanceof Message.ProgramEnded e) {
                    node.programEnded(null, e);
                } else if (m instanceof Message.SdcDetected d) {
                    node.sdcDetected(d);
                } else if (m instanceof Message.PieceHeld || m instanceof Message.PiecesOnDisk
                        || m instanceof Message.CheckpointCost || m instanceof Message.ProcessState) {
                    node.toPrimary(m);
                } else {
                    drop(ctx, "child coordinator sent " + m.type());
                }
            }
            case PEER -> {
                if (m instanceof Message.PiecePut p) {
                    node.checkpoints().put(ctx.channel(), inbox, p.chunk(), false);
                } else if (m instanceof Message.PieceGet g) {
                    node.checkpoints().get(ctx.channel(), g, false);
                } else {
                    drop(ctx, "data link sent " + m.type());
                }
            }
            // ServerAuthHandler sits in front until AUTH succeeds, so AWAIT_AUTH cannot see a message; DONE means
            // the process already said goodbye and has nothing more to say.
            case AWAIT_AUTH, DONE -> drop(ctx, "unexpected " + m.type() + " in state " + state);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        switch (state) {
            case PROCESS -> node.processConnectionLost(ctx.channel());
            case COORDINATOR -> node.childLost(ctx.channel());
            default -> { }
        }
        // after a failure is on its way: the survivors wait for it, not for a half-received piece's memory (its
        // first release loads the assembler's classes)
        node.checkpoints().connectionClosed(inbox);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof java.io.IOException) {
            // the socket itself failed: a killed process's connection is reset. Its end is handled as the lost
            // connection it is (channelInactive), not as a peer that misbehaved
            LOG.log(Level.FINE, "coordinator node {0}: connection from {1} ({2}) failed: {3}",
                    new Object[] {node.nodeId(), ctx.channel().remoteAddress(), state, cause.toString()});
            ctx.close();
            return;
        }
        // Oversized frames, unknown types and malformed payloads all arrive here from the codec.
        drop(ctx, cause.toString());
    }

    private void drop(ChannelHandlerContext ctx, String why) {
        if (ctx.channel().isOpen()) {
            LOG.log(Level.WARNING, "coordinator node {0}: closing connection from {1} ({2}): {3}",
                    new Object[] {node.nodeId(), ctx.channel().remoteAddress(), state, why});
            ctx.close();
        }
    }
}
