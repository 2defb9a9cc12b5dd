import Foundation
import HealthCore
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// At most a number of open connections: one past it is closed as soon as it is accepted.
/// A flood of idle or trickling connections then cannot take every file descriptor — the
/// ones the stores, the uploads and the log need (a server out of them stopped answering,
/// and twice crashed, in the attack of 2026-11-25).
final class ConnectionLimit: Sendable {
    let limit: Int
    private let open = Locked(0)

    init(limit: Int) { self.limit = max(1, limit) }

    /// The default: half the process's file descriptors (the other half for stores, files
    /// and uploads), at most 4,096.
    static func defaultLimit() -> Int {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return 512 }
        return Int(min(4096, max(64, limits.rlim_cur / 2)))
    }

    /// Connections open now.
    var count: Int { open.withLock { $0 } }

    /// Counts a new connection in; `false` when it is one too many (then it is not counted).
    func admit() -> Bool {
        open.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func release() { open.withLock { $0 -= 1 } }

    /// The handler of one connection, for its channel pipeline.
    func handler() -> Handler { Handler(limit: self) }

    /// Admits its connection when added, releases it when the connection closes; closes a
    /// connection over the limit at once.
    final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny
        private let limit: ConnectionLimit
        private var admitted = false

        init(limit: ConnectionLimit) { self.limit = limit }

        func handlerAdded(context: ChannelHandlerContext) {
            admitted = limit.admit()
            if !admitted, context.channel.isActive { context.close(promise: nil) }
        }

        func channelActive(context: ChannelHandlerContext) {
            guard admitted else {
                context.close(promise: nil)
                return
            }
            context.fireChannelActive()
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            if admitted {
                admitted = false
                limit.release()
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            if admitted {
                admitted = false
                limit.release()
            }
            context.fireChannelInactive()
        }
    }
}
