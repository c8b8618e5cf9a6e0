import CSQLite
import Dispatch
import Foundation

// Ein Haken in die Abfragen eines Readers. SQLite ruft den Progress-Handler alle 50 Befehle
// seiner VM auf, auf dem Thread, der lädt. Der Haken zählt diese Ticks und führt beim 20. Tick
// einmal einen Eingriff aus, auf diesem Thread und mitten in der Abfrage. Kein Test hängt
// davon ab, wie schnell ein Thread drankommt oder wie lange eine Abfrage dauert.
final class QueryHook: @unchecked Sendable {
    private let lock = NSLock()
    private var action: (@Sendable () -> Void)?
    private var count = 0

    static func install(on reader: Reader) -> QueryHook {
        let hook = QueryHook()
        let context = Unmanaged.passRetained(hook).toOpaque()
        reader.connection.withLock {
            sqlite3_progress_handler(
                reader.connection.handle, 50,
                { context in
                    Unmanaged<QueryHook>.fromOpaque(context!).takeUnretainedValue().tick()
                    return 0
                }, context)
        }
        return hook
    }

    // Wie oft SQLite den Handler bisher aufgerufen hat.
    var ticks: Int {
        lock.withLock { count }
    }

    func arm(_ action: @escaping @Sendable () -> Void) {
        lock.withLock { self.action = action }
    }

    private func tick() {
        let action: (@Sendable () -> Void)? = lock.withLock {
            count += 1
            guard count >= 20, let action = self.action else { return nil }
            self.action = nil
            return action
        }
        action?()
    }
}

// Hält einen Thread an einer bekannten Stelle fest, bis der Test ihn freigibt.
final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var hasArrived = false
    private var waiter: CheckedContinuation<Void, Never>?
    private let opened = DispatchSemaphore(value: 0)

    // Auf dem Thread, der warten soll: meldet die Ankunft und wartet auf open().
    func pass() {
        let waiter: CheckedContinuation<Void, Never>? = lock.withLock {
            hasArrived = true
            defer { self.waiter = nil }
            return self.waiter
        }
        waiter?.resume()
        // Ohne Frist: Wer open() aufruft, ist ein Task des Tests, und der kommt auf einer
        // ausgelasteten Maschine vielleicht erst nach Minuten an die Reihe. Hängt der Code
        // wirklich, meldet build-docs den Test als hängend.
        opened.wait()
    }

    // Kehrt zurück, sobald der Thread am Tor steht.
    func arrival() async {
        await withCheckedContinuation { continuation in
            let arrived = lock.withLock {
                if !hasArrived { waiter = continuation }
                return hasArrived
            }
            if arrived { continuation.resume() }
        }
    }

    func open() {
        opened.signal()
    }
}
