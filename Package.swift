// swift-tools-version: 6.0
import Foundation
import PackageDescription

let package = Package(
    name: "Trailbook",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "trailbook", targets: ["trailbook"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Already there for Hummingbird and PostgresNIO; named for the server's thread pool.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(name: "GPSCore", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),
        // The decoder's state lives in classes whose every access the runtime would otherwise
        // check for exclusivity (5.5% of `decode`'s profile); debug builds and tests keep the checks.
        .target(
            name: "NMEA", dependencies: ["GPSCore"],
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        .systemLibrary(name: "CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
        .target(name: "CPosix"),
        // libcurl through dlopen, so only the commands that send HTTP requests load it.
        .target(name: "CHTTP"),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CTCD", providers: [.apt(["libtcd-dev"])]),
        // QR codes for pairing phones (Debian's libqrencode).
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // Tide predictions from harmonic constants (XTide's .tcd databases, read with libtcd).
        .target(name: "Tides", dependencies: ["CTCD"]),
        .target(
            name: "GPSDevices",
            dependencies: [
                "GPSCore", "NMEA", "CGPS", "Formats", .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .target(
            name: "Pipeline",
            dependencies: [
                "GPSCore", "Visits", .product(name: "Logging", package: "swift-log"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        // Where was I: visits, places, trips and their modes, found in the points (pure values).
        .target(name: "Visits", dependencies: ["GPSCore"]),
        // What is stored and the store protocol: every store (SQLite now, PostgreSQL next) conforms.
        .target(
            name: "TrackModel",
            dependencies: [
                "GPSCore", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The contract any store must keep, as checks the stores' test targets run.
        .target(name: "StoreContract", dependencies: ["TrackModel", "GPSCore"]),
        .target(
            name: "TrackStore",
            dependencies: [
                "GPSCore", "TrackModel", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SystemPackage", package: "swift-system"), .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The PostgreSQL store: the only target that sees PostgresNIO.
        .target(
            name: "StorePostgres",
            dependencies: [
                "GPSCore", "TrackModel", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(name: "RideSimulator", dependencies: ["GPSCore", "NMEA"]),
        // Sun, Moon and solunar periods computed offline (Meeus, NOAA): no dependencies.
        .target(name: "Conditions"),
        // The template layer every HTML page goes through (escapes by default).
        .target(name: "PageTemplates", dependencies: [.product(name: "Mustache", package: "swift-mustache")]),
        // Every reader and writer of a file format (GPX, KML, GeoJSON, CSV, FIT, TCX, Google's and
        // OwnTracks' histories, Trailbook's JSON track) and the archives they come in (zip, gzip, tar).
        .target(name: "Formats", dependencies: ["GPSCore", "CZlib"]),
        .target(name: "Reports", dependencies: ["GPSCore", "PageTemplates"]),
        .target(name: "Photos", dependencies: ["GPSCore"]),
        // The use cases as services any front end calls (the command line now, the server next).
        .target(
            name: "TrailbookKit",
            dependencies: [
                "GPSCore", "NMEA", "GPSDevices", "Pipeline", "TrackModel", "Reports", "Formats", "Photos", "Conditions",
                "Tides", "Visits", "CHTTP", .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // bcrypt only (a small C library): not the server framework.
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The sharing server: the only target that sees Hummingbird.
        .target(
            name: "TrailbookServer",
            dependencies: [
                "TrailbookKit", "TrackModel", "GPSCore", "Pipeline", "Visits", "Formats", "CQRencode", "CPosix",
                "PageTemplates", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The OpenAPI document: one file, compiled into the binary and served as it is.
            resources: [.embedInCode("openapi.json")]
        ),
        .target(
            name: "TrailbookCommands",
            dependencies: [
                "TrailbookServer",
                "GPSCore", "NMEA", "GPSDevices", "Pipeline", "TrackStore", "StorePostgres", "RideSimulator", "Reports",
                "Formats",
                "Photos",
                "TrailbookKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(name: "trailbook", dependencies: ["TrailbookCommands"]),
        // Helpers for tests: pseudo-terminal pairs, a gpsd started by gpsfake, sample paths.
        .target(name: "TrailbookTestSupport", dependencies: ["CPosix", "GPSCore"]),
        .testTarget(name: "GPSCoreTests", dependencies: ["GPSCore"]),
        .testTarget(name: "VisitsTests", dependencies: ["Visits", "GPSCore", "RideSimulator"]),
        .testTarget(name: "TrackModelTests", dependencies: ["TrackModel", "GPSCore"]),
        .testTarget(
            name: "TrailbookKitTests",
            dependencies: [
                "TrailbookKit", "Conditions", "Tides", "TrackStore", "Pipeline", "GPSCore", "RideSimulator", "Reports",
                "TrailbookTestSupport",
            ]
        ),
        .testTarget(name: "ConditionsTests", dependencies: ["Conditions"], resources: [.copy("Fixtures")]),
        .testTarget(name: "TidesTests", dependencies: ["Tides"]),
        .testTarget(name: "FormatsTests", dependencies: ["Formats", "GPSCore"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "PageTemplates", "GPSCore", "RideSimulator"]),
        .testTarget(name: "PhotosTests", dependencies: ["Photos", "GPSCore", "TrailbookTestSupport"]),
        .testTarget(
            name: "TrackStoreTests",
            dependencies: [
                "TrackStore", "GPSCore", "NMEA", "Pipeline", "StoreContract", "TrailbookTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "StorePostgresTests",
            dependencies: [
                "StorePostgres", "TrackStore", "StoreContract", "GPSCore", "TrailbookTestSupport",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "NMEATests", dependencies: ["NMEA", "GPSCore", "RideSimulator"]),
        .testTarget(
            name: "PipelineTests",
            dependencies: [
                "Pipeline", "GPSCore", "NMEA", "GPSDevices", "RideSimulator", "TrailbookTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "GPSDevicesTests",
            dependencies: [
                "GPSDevices", "GPSCore", "NMEA", "TrailbookTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "TrailbookServerTests",
            dependencies: [
                "TrailbookServer", "TrailbookKit", "TrackStore", "Pipeline", "GPSCore", "TrailbookTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "TrailbookCommandsTests",
            dependencies: [
                "TrailbookCommands", "TrailbookTestSupport", "TrackStore", "StorePostgres", "TrailbookServer",
                "Pipeline", "GPSCore", "RideSimulator",
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Golden")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Benchmarks that `make bench` builds (scripts/bench-postgres.sh), with TRAILBOOK_BENCH set: not part of
// every build.
if ProcessInfo.processInfo.environment["TRAILBOOK_BENCH"] != nil {
    package.targets.append(
        .executableTarget(
            name: "bench-pg-statements",
            dependencies: [
                "GPSCore", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Sources/Bench/pg-statements"))
}

// libFuzzer targets, only for `make fuzz` (TRAILBOOK_FUZZ=1, built with -sanitize=fuzzer,address):
// without libFuzzer's main they would not link.
if ProcessInfo.processInfo.environment["TRAILBOOK_FUZZ"] != nil {
    package.targets.append(.target(name: "FuzzSupport", path: "Sources/Fuzz/support"))
    for (name, dependencies) in [
        ("nmea", ["NMEA", "GPSCore"]), ("gpx", ["Formats", "GPSCore"]), ("json-track", ["Formats"]),
        ("exif", ["Photos"]), ("config", ["Pipeline"]),
    ] {
        package.targets.append(
            .executableTarget(
                name: "fuzz-\(name)", dependencies: (dependencies + ["FuzzSupport"]).map { .target(name: $0) },
                path: "Sources/Fuzz/\(name)"))
    }
}
