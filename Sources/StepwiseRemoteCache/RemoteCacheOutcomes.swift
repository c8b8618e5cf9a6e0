import Foundation

/// What a fetch from the remote cache found.
public enum FetchOutcome: Sendable, Equatable {
    /// The record stored under the key, checked against its SHA-256 and size.
    case hit(Data)
    /// No usable entry: `reason` is nil when the server has none (404), and says what was
    /// wrong when an entry existed but was corrupt, undecodable or incomplete.
    case miss(reason: String?)
    /// The server could not be asked: it is down, timed out, refused the read or failed (5xx).
    case unavailable(String)
}

/// What storing a record in the remote cache did.
public enum StoreOutcome: Sendable, Equatable {
    /// The blob and then the action result were accepted.
    case stored
    /// The cache is read-only: nothing was sent.
    case readOnly
    /// The server refused a write (401, 403 or another 4xx): the record was not shared.
    case refused(String)
    /// The server could not be asked: it is down, timed out or failed (5xx).
    case unavailable(String)
}
