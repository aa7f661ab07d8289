/// A typed error for the tests of typed throws.
package enum ParseError: Error, Equatable {
    case badDigit(position: Int)
    case empty
}
