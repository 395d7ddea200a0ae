extension DayReport {
    /// What the `day` and `webday` templates read: a day's page as values already in words, by
    /// the names the templates use. Optional parts left nil are left out of the page.
    struct Page: Encodable {
        var title: String
        var theme: String
        var date: String
        /// "Sun " (with its space), or nothing for a date that is not one.
        var weekday: String
        var zone: String
        var rideCount: String
        var recordCount: String
        var map: Map
        var hasRides: Bool
        var rides: [RideRow]
        var profile: Profile
        var timeline: TimelineSection
        var hasRecords: Bool
        var records: [Record]
        /// The overlay page this day belongs to (a report file's).
        var back: String?
        var summary: String?
        var suggest: SuggestionTable.Section?
        var attribution: String?
        /// A served page's links and forms.
        var web: Links?
        /// A served page's panel: the day's stays, moves and records in time order.
        var story: [Entry]?
        /// A served page's records of Google's visits and trips, folded together.
        var google: Google?
        var totals: Totals?

        struct Links: Encodable {
            var user: String
            var csrf: String
            var previous: String
            var next: String
            var home: String
            var script: String
            var summaryAction: String
            var markAction: String
            var summaryText: String
            var year: String
            /// "Sunday 14 June 2026".
            var written: String
            var message: String?
            /// Where the edits of the timeline are posted, and the edit just made (undone from the message).
            var correctAction: String
            var undo: String?
        }

        /// The map: rides in parts (a dashed line across each gap), record pins, the base map.
        struct Map: Encodable {
            struct Ride: Encodable {
                var id: Int64
                var colour: String
                var parts: [Part]
                var ends: Ends?
            }
            struct Part: Encodable {
                /// The SVG path.
                var d: String
                /// The dashed line from the part before.
                var gap: Gap?
            }
            struct Gap: Encodable {
                var x1: String
                var y1: String
                var x2: String
                var y2: String
            }
            /// Where the start circle (`a`) and the end square (`b`) are.
            struct Ends: Encodable {
                var ax: String
                var ay: String
                var bx: String
                var by: String
            }
            struct Pin: Encodable {
                var id: Int64
                var x: String
                var y: String
                var w: String
                var tx: String
                var ty: String
            }
            var width: Int
            var height: Int
            var rides: [Ride]
            var pins: [Pin]
            var markerFill: String
            var markerEdge: String
            var tileLevels: [MapTiles.Level]
            /// The projection's parameters, for the script.
            var projection: String
            var trackData: String
            var bar: ScaleBar
            /// `x y w h` the served page's script opens the map on.
            var fit: String?
        }

        struct RideRow: Encodable {
            var id: Int64
            var colour: String
            var start: String
            var end: String
            var distance: String
            var moving: String
            var average: String
            var max: String
            var climb: String
            var descent: String
        }

        /// The elevation profile (`none`: no altitude to draw, and nothing else set).
        struct Profile: Encodable {
            struct Path: Encodable {
                var colour: String
                var d: String
            }
            struct Heart: Encodable {
                var paths: [String]
                var low: Int
                var high: Int
            }
            var none: Bool
            var width: Int?
            var height: Int?
            var paths: [Path]?
            var lowest: String?
            var highest: String?
            var distance: String?
            var heart: Heart?
        }

        struct Record: Encodable {
            struct Field: Encodable {
                var key: String
                var value: String
                var label: String
            }
            struct Photo: Encodable {
                var name: String
                var source: String
            }
            var id: Int64
            var pinned: Bool
            var time: String
            var position: String
            var notes: [String]
            var hasFields: Bool
            var fields: [Field]
            var hasPhotos: Bool
            var photos: [Photo]
            /// A served page's forms for the record.
            var noteAction: String?
            var csrf: String?
            var deleteLink: String?
            var photoAction: String?
        }

        /// An entry of the panel: a stay, a move or a record.
        struct Entry: Encodable {
            /// `stay`, `move` or `note`.
            var kind: String
            var mode: String
            var icon: String
            var name: String
            var id: String
            var span: String
            var detail: String?
            /// Where it is on the map (`x y w h`), and its shape there.
            var box: String?
            var focus: Focus?
            /// A record's id.
            var record: Int64?
            /// A stay's or move's correction forms.
            var title: String?
            var at: String?
            var corrected: Bool?
            var csrf: String?
            var action: String?
            var modes: Choice?
            var places: Choice?
            var rename: Rename?
            /// A stay's edits: its hours, where to split it, the stay it merges with.
            var edit: Edit?
        }
        struct Edit: Encodable {
            var from: String
            var to: String
            var fromDay: Int
            var toDay: Int
            var merge: String?
        }
        struct Focus: Encodable {
            var line: String?
            var circle: Circle?
        }
        struct Circle: Encodable {
            var x: String
            var y: String
            var r: String
        }
        struct Choice: Encodable {
            var options: [Option]
        }
        struct Option: Encodable {
            var value: String
            var name: String?
            var selected: Bool
        }
        struct Rename: Encodable {
            var place: String
            var current: String
        }

        struct Google: Encodable {
            var records: [Record]
            /// "Google" or "Google and …": who said so.
            var who: String
            var count: String
        }

        struct Totals: Encodable {
            var distance: String
            var moving: String
            var climb: String
        }
    }
}
