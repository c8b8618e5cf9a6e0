import Foundation

/// The script the preview server adds to every HTML page it serves (never to the file on
/// disk): it long-polls the changes endpoint with the build generation the page came from, and
/// reloads the page when the endpoint answers, that is when a newer build is being served.
enum ReloadScript {
    /// The endpoint the script polls: `/_stepwise/changes?since=N`.
    static let endpoint = "/_stepwise/changes"

    /// The script element for a page served at `generation`.
    static func element(generation: Int) -> String {
        """
        <script data-stepwise-preview>
        (function () {
          var since = \(generation), delay = 250;
          function poll() {
            fetch("\(endpoint)?since=" + since, { cache: "no-store" }).then(function (response) {
              if (response.status !== 200) { throw new Error("HTTP " + response.status); }
              location.reload();
            }).catch(function () {
              delay = Math.min(delay * 2, 5000);
              setTimeout(poll, delay);
            });
          }
          poll();
        })();
        </script>

        """
    }

    /// `html` with the script inserted before its last `</body>` (in any case), or at its end
    /// when it has none.
    static func inject(into html: Data, generation: Int) -> Data {
        let script = Data(element(generation: generation).utf8)
        let bytes = [UInt8](html)
        let needle = Array("</body".utf8)
        var index = bytes.count - needle.count
        while index >= 0 {
            if zip(bytes[index..<index + needle.count], needle).allSatisfy({ lowercased($0) == $1 }) {
                var result = Data(bytes[..<index])
                result.append(script)
                result.append(contentsOf: bytes[index...])
                return result
            }
            index -= 1
        }
        return html + script
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
