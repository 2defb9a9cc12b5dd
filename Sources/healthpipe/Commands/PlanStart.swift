import ArgumentParser
import Foundation
import HealthCore

extension Plan {
    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mark a planned workout as started.")

        @OptionGroup var transition: PlanTransition

        func run() async throws { try await transition.apply(verb: "started") { $0.startedAt = $1 } }
    }
}
