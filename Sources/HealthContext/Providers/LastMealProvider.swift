import Foundation
import HealthCore
import HealthDaily

/// The last meal logged, from food correlations and dietary samples (energy,
/// carbohydrates, protein, fat) in the health store: "Lunch (Chicken salad), 2 hours ago".
///
/// The meal is named by the logging app's meal metadata when there is one, otherwise by
/// the local time it was eaten (``mealName(at:in:)``); the food by `HKFoodType`.
public struct LastMealProvider: ContextProvider {
    public let store: any HealthQuerying
    /// The types that mark a meal; the latest sample of any of them is the last meal.
    public static let mealTypes: [SampleType] = [
        .food, .dietaryEnergyConsumed, SampleType("HKQuantityTypeIdentifierDietaryCarbohydrates"),
        SampleType("HKQuantityTypeIdentifierDietaryProtein"), SampleType("HKQuantityTypeIdentifierDietaryFatTotal"),
    ]
    /// Metadata keys apps use for the meal (breakfast, lunch…).
    static let mealKeys: Set<String> = ["HKFoodMeal", "meal", "Meal", "MealType"]

    public init(store: any HealthQuerying) { self.store = store }

    public var name: String { "meals" }
    public var fields: [ContextField] { [.lastMealLogged] }

    public func provide(for request: ContextRequest) async throws -> ContextContribution {
        let latest = try await withThrowingTaskGroup(of: Sample?.self) { group in
            for type in Self.mealTypes {
                group.addTask { try await store.latestSample(of: type, endingBy: request.instant) }
            }
            var found: [Sample] = []
            for try await sample in group { if let sample { found.append(sample) } }
            return found
        }
        var result = ContextContribution()
        guard let newest = latest.map(\.start).max() else {
            result.reasons[.lastMealLogged] = "no food or dietary samples recorded"
            return result
        }
        // The correlation and its children share the meal's time; read names from all of them.
        let meal = latest.filter { abs($0.start.timeIntervalSince(newest)) < 1 }
        let metadata = meal.flatMap(\.metadata)
        let mealName =
            metadata.first { Self.mealKeys.contains($0.key) }?.value.capitalized
            ?? Self.mealName(at: newest, in: request.day.zone)
        let food = metadata.first { $0.key == "HKFoodType" }?.value
        let label = food.map { "\(mealName) (\($0))" } ?? mealName
        result.values.lastMealLogged = "\(label), \(Self.ago(request.instant.timeIntervalSince(newest)))"
        return result
    }

    /// Breakfast 04:00–10:30, lunch 10:30–15:00, dinner 17:00–21:30, otherwise a snack.
    public static func mealName(at instant: Date, in zone: TimeZone) -> String {
        let minute = Int(truncatingSaturating: ClockTime.secondsOfDay(instant, in: zone) / 60) ?? 0
        switch minute {
        case 240..<630: return "Breakfast"
        case 630..<900: return "Lunch"
        case 1020..<1290: return "Dinner"
        default: return "Snack"
        }
    }

    /// "just now", "25 minutes ago", "2 hours ago" (under two days), "3 days ago".
    public static func ago(_ seconds: TimeInterval) -> String {
        let minutes = Int(truncatingSaturating: seconds / 60) ?? 0
        func plural(_ n: Int, _ unit: String) -> String { "\(n) \(unit)\(n == 1 ? "" : "s") ago" }
        if minutes < 1 { return "just now" }
        if minutes < 60 { return plural(minutes, "minute") }
        if minutes < 48 * 60 { return plural(minutes / 60, "hour") }
        return plural(minutes / 1440, "day")
    }
}
