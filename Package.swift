// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Trailbook",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "trailbook", targets: ["trailbook"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: [
        .target(name: "GPSCore"),
        .target(name: "NMEA", dependencies: ["GPSCore"]),
        .target(name: "RideSimulator", dependencies: ["GPSCore", "NMEA"]),
        .target(
            name: "TrailbookCommands",
            dependencies: [
                "GPSCore", "NMEA", "RideSimulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "trailbook", dependencies: ["TrailbookCommands"]),
        .testTarget(name: "GPSCoreTests", dependencies: ["GPSCore"]),
        .testTarget(name: "NMEATests", dependencies: ["NMEA", "GPSCore", "RideSimulator"]),
        .testTarget(
            name: "TrailbookCommandsTests",
            dependencies: ["TrailbookCommands"],
            resources: [.copy("Golden")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
