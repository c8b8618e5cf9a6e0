import Foundation

extension RemoteCache {
    /// Where the remote cache is and how to reach it. Its description, debug description and
    /// mirror never show the credentials.
    public struct Configuration: Sendable, Equatable, CustomStringConvertible {
        /// The cache's base URL, `http` or `https`, without credentials; entries live under
        /// `ac/` and `cas/` below it.
        public var url: URL
        /// How requests authenticate, if they do.
        public var credentials: Credentials?
        /// When true, `store` sends nothing.
        public var readOnly: Bool
        /// How long one request may take before the server counts as unavailable, in whole
        /// seconds (rounded up, at least one: URLSession on Linux counts no finer).
        public var timeout: Duration

        /// A configuration for `url` (which must be `http` or `https`, with a host, and carry no
        /// credentials).
        public init(
            url: URL, credentials: Credentials? = nil, readOnly: Bool = false, timeout: Duration = .seconds(10)
        ) throws {
            guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                url.host?.isEmpty == false
            else {
                throw ConfigurationError(
                    "the cache URL must be an http:// or https:// URL with a host, such as http://cache.example:8080/stepwise"
                )
            }
            guard url.user == nil, url.password == nil else {
                throw ConfigurationError(
                    "the cache URL must not carry credentials: set STEPWISE_CACHE_USER and STEPWISE_CACHE_PASSWORD "
                        + "(HTTP Basic) or STEPWISE_CACHE_TOKEN (Bearer) in the environment instead")
            }
            self.url = url
            self.credentials = credentials
            self.readOnly = readOnly
            self.timeout = timeout
        }

        /// The configuration that the `--cache-url` option (`url`) or else `STEPWISE_CACHE_URL`
        /// names, with credentials from `STEPWISE_CACHE_USER` and `STEPWISE_CACHE_PASSWORD`
        /// (HTTP Basic) or `STEPWISE_CACHE_TOKEN` (Bearer); nil when neither names a URL. Empty
        /// variables count as unset, as CI leaves secrets that a job may not see.
        public static func resolve(
            url: String?, readOnly: Bool, environment: [String: String], timeout: Duration = .seconds(10)
        ) throws -> Configuration? {
            func value(_ name: String) -> String? {
                guard let value = environment[name], !value.isEmpty else { return nil }
                return value
            }
            guard let text = url.flatMap({ $0.isEmpty ? nil : $0 }) ?? value("STEPWISE_CACHE_URL") else {
                return nil
            }
            guard let parsed = URL(string: text) else {
                throw ConfigurationError("the cache URL is not a URL")
            }
            let credentials: Credentials?
            switch (value("STEPWISE_CACHE_USER"), value("STEPWISE_CACHE_PASSWORD"), value("STEPWISE_CACHE_TOKEN")) {
            case (nil, nil, nil):
                credentials = nil
            case (let user?, let password?, nil):
                credentials = .basic(user: user, password: password)
            case (nil, nil, let token?):
                credentials = .bearer(token: token)
            case (_, _, _?):
                throw ConfigurationError(
                    "set either STEPWISE_CACHE_TOKEN or STEPWISE_CACHE_USER and STEPWISE_CACHE_PASSWORD, not both")
            case (_?, nil, nil):
                throw ConfigurationError("STEPWISE_CACHE_USER is set but STEPWISE_CACHE_PASSWORD is not")
            case (nil, _?, nil):
                throw ConfigurationError("STEPWISE_CACHE_PASSWORD is set but STEPWISE_CACHE_USER is not")
            }
            return try Configuration(url: parsed, credentials: credentials, readOnly: readOnly, timeout: timeout)
        }

        /// The URL, then what applies: `http://127.0.0.1:8080/cache (read-only, basic auth)`.
        public var description: String {
            let notes = (readOnly ? ["read-only"] : []) + (credentials.map { [$0.description] } ?? [])
            return notes.isEmpty ? url.absoluteString : "\(url.absoluteString) (\(notes.joined(separator: ", ")))"
        }
    }

    /// How requests authenticate. Its description, debug description and mirror name the
    /// scheme only, never the secret.
    public enum Credentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
        CustomReflectable
    {
        /// HTTP Basic, from `STEPWISE_CACHE_USER` and `STEPWISE_CACHE_PASSWORD`.
        case basic(user: String, password: String)
        /// A Bearer token, from `STEPWISE_CACHE_TOKEN`.
        case bearer(token: String)

        /// `basic auth` or `bearer token`.
        public var description: String {
            switch self {
            case .basic: "basic auth"
            case .bearer: "bearer token"
            }
        }

        /// The same as `description`: the scheme, no secret.
        public var debugDescription: String { description }

        /// A mirror with no children, so that `dump` shows no secret either.
        public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }

        /// The `Authorization` header's value.
        var authorization: String {
            switch self {
            case .basic(let user, let password): "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
            case .bearer(let token): "Bearer \(token)"
            }
        }
    }

    /// A cache URL or credential setting that cannot be used; its message never repeats a secret.
    public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
        /// What is wrong and what to do instead.
        public var description: String
        init(_ description: String) { self.description = description }
    }
}
