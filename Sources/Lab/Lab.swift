import Tether
import TerminalUI
import Foundation; let s = PackageResources.help_txt; public let helpText = String(decoding: s, as: UTF8.self)
