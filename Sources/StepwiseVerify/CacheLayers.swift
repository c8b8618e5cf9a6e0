import Foundation
import StepwiseModel
import StepwiseRemoteCache

/// The verification caches in the order they are asked: this checkout's (`Output/.cache`),
/// then the team's remote cache. A remote hit is copied into the local cache; a verified
/// result is written to both.
///
/// The remote cache can never fail a build: a server that is down or refuses is said once,
/// and the run carries on with the local cache; an entry that is missing, corrupt or
/// undecodable is a miss, and its step is verified again.
struct CacheLayers {
    /// This checkout's cache, or nil to keep nothing.
    let local: VerificationCache?
    /// The team's cache, or nil.
    let remote: RemoteCache?
    /// What the remote cache did so far.
    private(set) var activity: RemoteCacheActivity?
    /// Whether the remote cache stopped answering (it is not asked again in this run).
    private var remoteDown = false
    /// Results the remote cache refused to store, and its first reason.
    private var refused: (count: Int, reason: String)?

    init(local: VerificationCache?, remote: RemoteCache?) {
        self.local = local
        self.remote = remote
        activity = remote.map {
            RemoteCacheActivity(url: $0.configuration.url.absoluteString, readOnly: $0.configuration.readOnly)
        }
    }

    /// The verified entry stored under `key` (for the target `target`) whose tests ran at
    /// least `runs` times (with `coverage`, one holding the coverage), and where it came from.
    mutating func entry(_ key: String, target: String, runs: Int, coverage: Bool) async -> (
        entry: VerificationCache.Entry, source: CacheSource
    )? {
        if let entry = local?.entry(key, runs: runs, coverage: coverage) { return (entry, .local) }
        guard let remote, !remoteDown else { return nil }
        switch await remote.fetch(key: key) {
        case .hit(let data):
            guard let entry = try? JSONDecoder().decode(VerificationCache.Entry.self, from: data), entry.key == key
            else {
                activity?.notices.append(
                    "\(target): the remote cache's entry could not be read as a verified result; verified again")
                return nil
            }
            guard entry.serves(runs: runs, coverage: coverage) else { return nil }
            activity?.fetched += 1
            try? local?.store(entry)
            return (entry, .remote)
        case .miss(let reason):
            if let reason {
                activity?.notices.append("\(target): the remote cache's entry is unusable (\(reason)); verified again")
            }
            return nil
        case .unavailable(let reason):
            stopAsking(reason)
            return nil
        }
    }

    /// Stores a verified `entry` in the local cache and, unless read-only, in the remote one.
    mutating func store(_ entry: VerificationCache.Entry) async throws {
        try local?.store(entry)
        guard let remote, !remoteDown else { return }
        switch await remote.store(key: entry.key, record: try entry.encoded()) {
        case .stored: activity?.stored += 1
        case .readOnly: break
        case .refused(let reason): refused = ((refused?.count ?? 0) + 1, refused?.reason ?? reason)
        case .unavailable(let reason): stopAsking(reason)
        }
    }

    /// What the remote cache did in the whole run, its refusals counted once.
    var summary: RemoteCacheActivity? {
        guard var activity, let refused else { return activity }
        let (results, them) = refused.count == 1 ? ("result was", "it") : ("results were", "them")
        activity.notices.append(
            "\(refused.count) verified \(results) not shared: the remote cache refused to store \(them), first with "
                + refused.reason)
        return activity
    }

    /// Says once that the remote cache is unavailable, and stops asking it.
    private mutating func stopAsking(_ reason: String) {
        remoteDown = true
        activity?.notices.append(
            "the remote cache is unavailable (\(reason)); carrying on with the local cache")
    }
}
