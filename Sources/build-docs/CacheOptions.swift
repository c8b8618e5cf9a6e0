import ArgumentParser
import Foundation
import Stepwise

/// How `build-docs build` shares verification with a team: the remote cache, the shards of a
/// CI matrix, and the final job that takes everything from the caches.
struct CacheOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A Bazel HTTP remote cache (bazel-remote, nginx with WebDAV, …) asked after Output/.cache and written with it; "
                + "default: $STEPWISE_CACHE_URL. Credentials come only from $STEPWISE_CACHE_USER and "
                + "$STEPWISE_CACHE_PASSWORD (Basic) or $STEPWISE_CACHE_TOKEN (Bearer).",
            valueName: "url"))
    var cacheURL: String?

    @Flag(help: "Read the remote cache but never write it (for untrusted jobs, such as pull requests from forks).")
    var cacheReadOnly = false

    @Option(
        help: ArgumentHelp(
            "Verify only shard K of N of the step targets (a CI matrix job), building only what they need; no site is written.",
            valueName: "K/N"))
    var shard: String?

    @Flag(
        help:
            "Verify nothing: take every step from the caches, write the site and the report, and fail listing the steps that have no verified result."
    )
    var cachedOnly = false

    func validate() throws {
        if let shard {
            do { _ = try Shard(parsing: shard) } catch { throw ValidationError(error.diagnostics[0].message) }
        }
        if cachedOnly && shard != nil { throw ValidationError("--cached-only and --shard exclude each other.") }
    }

    /// Sets these options in the pipeline's `options`, reading the remote cache's address and
    /// credentials from `environment` where the command line does not give them.
    func apply(to options: inout BuildOptions, environment: [String: String]) throws {
        do {
            options.remoteCache = try RemoteCache.Configuration.resolve(
                url: cacheURL, readOnly: cacheReadOnly, environment: environment)
        } catch let error as RemoteCache.ConfigurationError {
            throw ValidationError("the remote cache: \(error.description)")
        }
        options.shard = try shard.map { try Shard(parsing: $0) }
        options.cachedOnly = cachedOnly
    }
}
