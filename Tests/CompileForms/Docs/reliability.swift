// The names docs/reliability.md's code blocks use without declaring them. Each block is compiled
// as a program of its own (main.swift) with this file beside it, by scripts/check-compile-forms.
import Foundation

let urls = [URL(fileURLWithPath: "/tmp/a"), URL(fileURLWithPath: "/tmp/b")]
