import Foundation
import NIOCore
import NIOHTTPTypes

/// Request bodies must keep coming: once a grace period (the idle timeout) has passed since
/// a request's head, its body must have averaged `bytesPerSecond` since, else the
/// connection is closed. A client that trickles a few bytes every few seconds — which the
/// idle timeout does not catch — then holds no connection, file descriptor or import slot
/// (in the attack of 2026-11-25 it held them as long as it liked, without a token, on
/// `/login`). It watches the connection, not the handler, so a body the handler left unread
/// (which the server drains before the next request) is held to it too. A real upload of
/// any size at 1 KiB/s or more is never cut.
final class MinimumBodyRate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let grace: TimeInterval
    private let bytesPerSecond: Double
    private var started: ContinuousClock.Instant?
    private var received = 0

    init(grace: TimeInterval, bytesPerSecond: Double) {
        self.grace = grace
        self.bytesPerSecond = bytesPerSecond
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            started = .now
            received = 0
        case .body(let buffer):
            received += buffer.readableBytes
            if let started, tooSlow(since: started) {
                context.close(promise: nil)
                return
            }
        case .end:
            started = nil
        }
        context.fireChannelRead(data)
    }

    private func tooSlow(since started: ContinuousClock.Instant) -> Bool {
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return seconds > grace && Double(received) < bytesPerSecond * (seconds - grace)
    }
}
