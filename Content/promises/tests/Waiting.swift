extension Promise {
    // get() gives up after 10 s, which a busy machine can take to run a queued job. A test waits
    // as long as build-docs lets it run instead: after that, build-docs reports it as hung.
    func settled() throws -> Value {
        try get(timeout: .seconds(86_400))
    }
}
