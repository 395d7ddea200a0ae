import Foundation
import GPSCore
import Hummingbird
import TrackModel
import TrailbookKit

/// `/heatmap`: where the signed-in account has been, all time or in one year, in one view: its points counted
/// in cells of a grid (about 256 across the account's whole extent; counted once per ride and
/// kept while the server runs, ``HeatCells``), each cell
/// shaded by its count on a log scale, over the base map. The browser gets the cells, never the
/// points.
struct WebHeatmap {
    let store: any TrackStoring
    let login: Login
    let tiles: TileFetcher?
    let zone: TimeZone
    /// The counts kept per ride, for every account of the server.
    let heat: HeatCells

    /// Cells across the account's extent, and the smallest cell (degrees, about 200 m).
    static let across = 256.0
    static let smallest = HeatCells.fine

    func add(to router: Router<ServerContext>) {
        router.get("/heatmap") { request, _ -> Response in
            guard let (_, session) = await login.session(request) else { return WebPages.redirect("/") }
            let user = session.user
            let store = self.store
            let zone = await login.local(user, zone: zone).zone
            // All time, or one year's local days (`?year=2026`, linked from the year in review).
            let year = request.uri.queryParameters.get("year").flatMap { Int(String($0)) }
            if let year, !(1970...9999).contains(year) {
                throw Refusal(.notFound, "A heat map's year is between 1970 and 9999, e.g. /heatmap?year=2026.")
            }
            let (from, to) =
                year.map {
                    (
                        LocalDay.start(CivilDate(unchecked: $0, 1, 1), in: zone),
                        LocalDay.start(CivilDate(unchecked: $0 + 1, 1, 1), in: zone)
                    )
                } ?? (.min, .max)
            let (size, cells) = try await Self.cells(of: user, in: store, heat: heat, from: from, to: to)
            let points = cells.reduce(0) { $0 + $1.count }
            let whose =
                year.map { "Your \(Self.grouped(points)) points of \($0)" } ?? "All your \(Self.grouped(points)) points"
            let page = HeatmapPage(
                user: user, today: LocalTime.today(in: zone).description, heat: Self.json(size, cells),
                note: points == 0
                    ? (year.map { "Nothing recorded in \($0)." }
                        ?? "Nothing recorded yet: import a track or pair a phone.")
                    : "\(whose), in \(Self.grouped(cells.count)) squares of "
                        + "\(Self.metres(size)) on a side: the darker, the more often you were there.",
                year: year.map(String.init), tiles: tiles != nil,
                attribution: WebPages.attribution(tiles))
            return WebPages.html(WebTemplates.pages.render("heatmap", model: page))
        }
        router.get("/heatmap.js") { _, _ -> Response in WebPages.script(WebMapScripts.heatmap) }
    }

    /// What the heat map page shows: the squares (JSON for its script), what they count, the year.
    struct HeatmapPage: Encodable {
        let user: String
        let today: String
        let heat: String
        let note: String
        let year: String?
        let tiles: Bool
        let attribution: String?
    }

    /// The account's points counted in squares of ``HeatCells/fine`` degrees (kept per ride by
    /// `heat`), then in squares a whole number of those on a side that put about ``across`` of
    /// them over their extent.
    static func cells(
        of user: String, in store: any TrackStoring, heat: HeatCells, from: Int64 = .min, to: Int64 = .max
    ) async throws -> (Double, [PointCell]) {
        let fine = try await heat.cells(account: user, store: store, from: from, to: to)
        guard !fine.isEmpty else { return (smallest, []) }
        let rows = fine.keys.map { $0 >> 32 }
        let columns = fine.keys.map { $0 & 0xFFFF_FFFF }
        let span = Double(max(rows.max()! - rows.min()!, columns.max()! - columns.min()!) + 1) * HeatCells.fine
        let k = max(1, Int64((span / across / HeatCells.fine).rounded(.up)))
        return (Double(k) * HeatCells.fine, HeatCells.coarser(fine, by: k))
    }

    /// `{"size": DEGREES, "cells": [[ROW, COLUMN, COUNT], ...]}`.
    static func json(_ size: Double, _ cells: [PointCell]) -> String {
        "{\"size\":\(size),\"cells\":["
            + cells.map { "[\($0.row),\($0.column),\($0.count)]" }.joined(separator: ",") + "]}"
    }

    static func grouped(_ n: Int) -> String {
        let format = NumberFormatter()
        format.numberStyle = .decimal
        format.locale = Locale(identifier: "en_GB")
        return format.string(from: NSNumber(value: n)) ?? "\(n)"
    }

    /// A cell's side on the ground at the equator (narrower east-west toward the poles).
    static func metres(_ degrees: Double) -> String {
        let m = degrees * 111_320
        return m >= 1000 ? String(format: "%.0f km", m / 1000) : String(format: "%.0f m", m)
    }
}
