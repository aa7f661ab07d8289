import Foundation

struct Person: Equatable, Sendable {
    var name: String
    var age: Int
    var nickname: String?
    var address: Address
}

struct Address: Equatable, Sendable {
    var city: String
}

/// A class value, so that forwarded writes reach it.
final class Account: @unchecked Sendable {
    // @unchecked: tests write it from one thread, or after reading it through a future that
    // ordered the writes.
    var owner: String
    var balance: Int

    init(owner: String, balance: Int) {
        self.owner = owner
        self.balance = balance
    }
}

enum LoadError: Error, Equatable {
    case missing
    case corrupt(String)
}

let ada = Person(name: "Ada", age: 36, nickname: "Countess", address: Address(city: "London"))
let alan = Person(name: "Alan", age: 41, nickname: nil, address: Address(city: "Wilmslow"))
