/// Turns a page's view model (an `Encodable` struct) into what a template reads: dictionaries by
/// the model's coding keys, arrays, strings, integers, doubles and Bools. A nil optional leaves
/// its key out (a template's `{{#key}}` section is then skipped), as `encodeIfPresent` does.
enum TemplateEncoder {
    static func encode(_ value: some Encodable) throws -> Any {
        let node = Node()
        try node.take(value)
        return node.tree ?? [String: Any]()
    }

    /// One value being encoded: a scalar, a dictionary or an array of nodes.
    final class Node {
        enum Content {
            case none
            case scalar(Any)
            case keyed([String: Node])
            case unkeyed([Node])
        }
        var content = Content.none

        /// The value a template reads; nil for a nil or nothing.
        var tree: Any? {
            switch content {
            case .none: return nil
            case .scalar(let value): return value
            case .keyed(let nodes): return nodes.compactMapValues(\.tree)
            case .unkeyed(let nodes): return nodes.compactMap(\.tree)
            }
        }

        /// Encodes `value` into this node; strings, numbers and Bools are kept as they are.
        func take(_ value: some Encodable) throws {
            switch value {
            case let text as String: content = .scalar(text)
            case let flag as Bool: content = .scalar(flag)
            case let number as Int: content = .scalar(number)
            case let number as Int64: content = .scalar(number)
            case let number as Double: content = .scalar(number)
            default: try value.encode(to: Coder(node: self))
            }
        }

        func child(_ key: String) -> Node {
            let node = Node()
            if case .keyed(var nodes) = content {
                nodes[key] = node
                content = .keyed(nodes)
            } else {
                content = .keyed([key: node])
            }
            return node
        }

        func appended() -> Node {
            let node = Node()
            if case .unkeyed(var nodes) = content {
                nodes.append(node)
                content = .unkeyed(nodes)
            } else {
                content = .unkeyed([node])
            }
            return node
        }

        var count: Int {
            if case .unkeyed(let nodes) = content { return nodes.count }
            return 0
        }
    }

    struct Coder: Encoder {
        let node: Node
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .keyed = node.content {} else { node.content = .keyed([:]) }
            return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .unkeyed = node.content {} else { node.content = .unkeyed([]) }
            return Unkeyed(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(node: node, codingPath: codingPath) }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        var codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws {}
        mutating func encode(_ value: Bool, forKey key: Key) throws { try put(value, key) }
        mutating func encode(_ value: String, forKey key: Key) throws { try put(value, key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { try put(value, key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { try put(Double(value), key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { try put(value, key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try put(Int(value), key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try put(Int(value), key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try put(Int(value), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try put(value, key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try put(Int(value), key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(Int(value), key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(Int(value), key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(Int(value), key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(Int64(value), key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try put(value, key) }

        private func put(_ value: some Encodable, _ key: Key) throws { try node.child(key.stringValue).take(value) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            Coder(node: node.child(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            Coder(node: node.child(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { Coder(node: node.child("super"), codingPath: codingPath) }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            Coder(node: node.child(key.stringValue), codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey]
        var count: Int { node.count }

        mutating func encodeNil() throws { _ = node.appended() }
        mutating func encode<T: Encodable>(_ value: T) throws { try node.appended().take(value) }
        mutating func encode(_ value: Bool) throws { try node.appended().take(value) }
        mutating func encode(_ value: String) throws { try node.appended().take(value) }
        mutating func encode(_ value: Double) throws { try node.appended().take(value) }
        mutating func encode(_ value: Int) throws { try node.appended().take(value) }
        mutating func encode(_ value: Int64) throws { try node.appended().take(value) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            Coder(node: node.appended(), codingPath: codingPath).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            Coder(node: node.appended(), codingPath: codingPath).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { Coder(node: node.appended(), codingPath: codingPath) }
    }

    struct Single: SingleValueEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey]

        mutating func encodeNil() throws { node.content = .none }
        mutating func encode<T: Encodable>(_ value: T) throws { try node.take(value) }
        mutating func encode(_ value: Bool) throws { try node.take(value) }
        mutating func encode(_ value: String) throws { try node.take(value) }
        mutating func encode(_ value: Double) throws { try node.take(value) }
        mutating func encode(_ value: Int) throws { try node.take(value) }
        mutating func encode(_ value: Int64) throws { try node.take(value) }
    }
}
