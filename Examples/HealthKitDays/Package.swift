// swift-tools-version:6.0
import Foundation
import PackageDescription

// HealthPipeline is two folders up. SwiftPM names a package on disk after its folder,
// which differs from clone to clone: work the name out instead of spelling it.
let pipeline = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "HealthKitDays",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [.executable(name: "healthkit-days", targets: ["HealthKitDays"])],
    dependencies: [.package(path: "../..")],
    targets: [
        // Code written for HealthKit: on Apple platforms `HealthKitCompat` is HealthKit itself;
        // on Linux it is HealthKit's API over a HealthPipeline store.
        .executableTarget(
            name: "HealthKitDays",
            dependencies: [
                .product(name: "HealthKitCompat", package: pipeline),
                .product(name: "HealthKitQuerying", package: pipeline),
                .product(name: "HealthDaily", package: pipeline),
                .product(name: "HealthMetrics", package: pipeline),
                .product(name: "HealthBasics", package: pipeline),
            ]
        )
    ]
)
