import SwiftIDEUtils
import SwiftParser
import Mustache
