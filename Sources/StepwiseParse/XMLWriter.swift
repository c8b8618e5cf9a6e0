@preconcurrency import CLibXML2

/// An XML document built in memory and serialized by libxml2: the writing half of the one
/// module that touches libxml2 (`XMLTree` is the reading half). Text and attribute values
/// are escaped by libxml2; nothing written through it becomes markup it did not declare.
///
/// Elements are handles into the writer's document and are valid while the writer is.
public final class XMLWriter {
    private let document: xmlDocPtr
    private let namespace: xmlNsPtr?
    private var declared: [String: xmlNsPtr] = [:]

    /// An element of the document.
    public struct Element {
        fileprivate let node: xmlNodePtr
        fileprivate let writer: XMLWriter

        /// Adds a child element in the document's namespace, holding `text` (escaped) when given.
        @discardableResult
        public func child(_ name: String, text: String? = nil) -> Element {
            let child =
                text.map { xmlNewTextChild(node, writer.namespace, name, $0)! }
                ?? xmlNewChild(node, writer.namespace, name, nil)!
            return Element(node: child, writer: writer)
        }

        /// Adds a child element in the namespace that `declare(namespace:prefix:)` gave `prefix`,
        /// holding `text` (escaped) when given.
        @discardableResult
        public func child(_ name: String, prefix: String, text: String? = nil) -> Element {
            let namespace = writer.declared[prefix]!
            let child =
                text.map { xmlNewTextChild(node, namespace, name, $0)! } ?? xmlNewChild(node, namespace, name, nil)!
            return Element(node: child, writer: writer)
        }

        /// Sets an attribute.
        public func set(_ attribute: String, _ value: String) {
            xmlSetProp(node, attribute, value)
        }

        /// Appends text (escaped) after the element's children so far.
        public func append(text: String) {
            xmlAddChild(node, xmlNewText(text))
        }

        /// Marks the element `xml:space="preserve"`.
        public func preserveSpace() {
            xmlNodeSetSpacePreserve(node, 1)
        }
    }

    /// A document whose root element `root` is in `namespace`, the default namespace, or in
    /// no namespace when it is nil.
    public init(root: String, namespace uri: String?) {
        document = xmlNewDoc("1.0")
        let node = xmlNewNode(nil, root)!
        xmlDocSetRootElement(document, node)
        namespace = uri.flatMap { xmlNewNs(node, $0, nil) }
        xmlSetNs(node, namespace)
    }

    deinit { xmlFreeDoc(document) }

    /// Declares `uri` on the root element as the namespace of `prefix`, for
    /// `Element.child(_:prefix:text:)`.
    public func declare(namespace uri: String, prefix: String) {
        declared[prefix] = xmlNewNs(xmlDocGetRootElement(document), uri, prefix)
    }

    /// The root element.
    public var root: Element { Element(node: xmlDocGetRootElement(document), writer: self) }

    /// The document as indented UTF-8 text, with its XML declaration.
    public func serialized() -> String {
        var buffer: UnsafeMutablePointer<xmlChar>?
        var size: Int32 = 0
        xmlDocDumpFormatMemoryEnc(document, &buffer, &size, "UTF-8", 1)
        defer { xmlFree(buffer) }
        return buffer.map { String(cString: $0) } ?? ""
    }
}
