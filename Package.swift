// swift-tools-version: 6.2
import PackageDescription

// Stepwise is a pipeline, one stage per module, data flowing one way:
//
//   Content/ ─▶ StepwiseParse ─▶ StepwiseCheck ─▶ StepwiseAudit ─▶ StepwiseTangle
//            ─▶ StepwiseVerify ─▶ StepwiseRender ─▶ StepwiseReport
//
// The stages never import one another. What they share sits below them:
//
//   StepwiseModel      the plain values every stage passes on (tutorials, the codebase,
//                      diagnostics, the generated package's names): no locks, no disk
//   StepwiseFiles      the file system: WritableFolder, the one way anything is written,
//                      and FolderBoundary, the one check that a path stays inside a folder
//   StepwiseSyntax     swift-syntax on listings: ParseMemo holds one run's parsed trees, and
//                      what was derived from them, which it also keeps for the next run
//                      (with the tutorials read, tangled and rendered, by their inputs)
//   StepwiseTemplates  the Mustache templates of the codebase and the site
//
// StepwiseParse is the one module that touches libxml2, reading and writing. Stepwise runs
// the stages in order (Pipeline). The translators' tools (status, confirm, XLIFF and PO export and
// import) are StepwiseTranslationTools, out of the pipeline's way.
//
// Above them: StepwisePreview is the live preview behind `build-docs serve`, an HTTP server
// on the loopback address (FlyingFox) that serves the built site and rebuilds it through
// Stepwise when the content changes; it is a module of its own so that the pipeline's
// modules never depend on a server. StepwiseCLI is what the two commands, `build-docs` and
// `lesson`, share: the terminal, their path options, and the one place that turns a
// command's errors into diagnostics and an exit code.
//
// StepwiseRemoteCache is a client for Bazel's HTTP remote-cache protocol (`/ac` and `/cas`
// over GET and PUT): it stores and fetches opaque records under string keys, as REAPI v2
// ActionResult entries encoded with swift-protobuf, and knows nothing of Stepwise's steps.
let package = Package(
    name: "Stepwise",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "build-docs", targets: ["build-docs"]),
        .executable(name: "lesson", targets: ["lesson"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "602.0.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        // No traits: SwiftPM 6.3 passes the two default traits' defines to swiftc in an order
        // that changes from one run to the next, so about every other `swift build`, `swift run`
        // or `swift test` compiled SwiftProtobuf's 94 files again. Stepwise uses neither trait
        // (binary-delimited streams, field-mask helpers).
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0", traits: []),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .target(name: "StepwiseModel", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "StepwiseFiles", dependencies: ["StepwiseModel"]),
        .target(
            name: "StepwiseParse",
            dependencies: ["StepwiseModel", "StepwiseFiles", "StepwiseSyntax", "CLibXML2"],
            resources: [.copy("Schema")]
        ),
        .target(
            name: "StepwiseSyntax",
            dependencies: [
                "StepwiseModel",
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "StepwiseCheck",
            dependencies: [
                "StepwiseModel", "StepwiseSyntax",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "StepwiseAudit",
            dependencies: [
                "StepwiseModel", "StepwiseSyntax",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "StepwiseTranslationTools",
            dependencies: [
                "Stepwise", "StepwiseModel", "StepwiseFiles", "StepwiseParse", "StepwiseCheck", "StepwiseAudit",
                "StepwiseRender", "StepwiseSyntax", .product(name: "SwiftSyntax", package: "swift-syntax"),
            ],
            resources: [.copy("Schema")]
        ),
        .target(
            name: "StepwiseTemplates",
            dependencies: ["StepwiseModel", .product(name: "Mustache", package: "swift-mustache")]
        ),
        .target(
            name: "StepwiseTangle",
            dependencies: ["StepwiseModel", "StepwiseFiles", "StepwiseSyntax", "StepwiseTemplates"]
        ),
        .target(
            name: "StepwiseVerify",
            dependencies: [
                "StepwiseModel", "StepwiseFiles", "StepwiseRemoteCache", "StepwiseSyntax",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "Subprocess", package: "swift-subprocess"),
            ]
        ),
        .target(
            name: "StepwiseRender",
            dependencies: [
                "StepwiseModel", "StepwiseSyntax", "StepwiseTemplates",
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "SwiftIDEUtils", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
            ]
        ),
        .target(name: "StepwiseReport", dependencies: ["StepwiseModel"]),
        .target(
            name: "Stepwise",
            dependencies: [
                "StepwiseModel", "StepwiseFiles", "StepwiseSyntax", "StepwiseParse", "StepwiseCheck", "StepwiseAudit",
                "StepwiseTangle", "StepwiseVerify", "StepwiseRender", "StepwiseReport",
            ]
        ),
        .target(
            name: "StepwisePreview",
            dependencies: [
                "Stepwise", "StepwiseFiles",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ]
        ),
        .target(
            name: "StepwiseRemoteCache",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            exclude: ["Proto/remote_cache.proto"]
        ),
        .target(
            name: "StepwiseCLI",
            dependencies: ["Stepwise", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "build-docs",
            dependencies: [
                "Stepwise", "StepwiseCLI", "StepwisePreview", "StepwiseAudit", "StepwiseTranslationTools",
                "StepwiseModel", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "lesson",
            dependencies: [
                "Stepwise", "StepwiseCLI", "StepwiseParse", "StepwiseRender",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Subprocess", package: "swift-subprocess"),
            ]
        ),
        .testTarget(
            name: "StepwiseTests",
            dependencies: [
                "Stepwise", "StepwiseModel", "StepwiseFiles", "StepwiseSyntax", "StepwiseParse", "StepwiseCheck",
                "StepwiseAudit", "StepwiseTranslationTools", "StepwiseTangle",
                "StepwiseVerify", "StepwiseRender", "StepwiseReport", "StepwisePreview", "StepwiseRemoteCache",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            exclude: ["Golden"],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
