import ArgumentParser
import Foundation
import HealthCore

extension Plan {
    struct Finish: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mark a planned workout as finished.")

        @OptionGroup var transition: PlanTransition

        func run() async throws {
            try await transition.apply(verb: "finished") { workout, instant in
                if workout.startedAt == nil { workout.startedAt = instant }
                workout.finishedAt = instant
            }
        }
    }
}
