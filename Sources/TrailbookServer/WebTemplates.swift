import PageTemplates

/// The Mustache templates of the server's pages (through ``PageTemplates``, which escapes what
/// they insert) and the page script.
enum WebTemplates {
    static let pages = PageTemplates([(name: "head", text: head), ("login", login), ("home", home)])

    static let head = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Trailbook</title>
        <style>
        body { font: 16px/1.4 system-ui, sans-serif; margin: 0 auto; max-width: 960px; padding: 0 12px; color: #1b1b1b; }
        header { display: flex; justify-content: space-between; align-items: center; gap: 8px; flex-wrap: wrap; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid #ddd; white-space: nowrap; }
        #map { display: block; width: 100%; height: 320px; background: #eef2ee; border: 1px solid #ccc; box-sizing: border-box; }
        .scroll { overflow-x: auto; }
        .attribution { font-size: .8em; opacity: .75; text-align: right; }
        @media (max-width: 600px) { #map { height: 240px; } th, td { padding: 4px 3px; } }
        .message { background: #fff4c2; padding: 6px 10px; }
        .code { font: 700 28px/1.2 ui-monospace, monospace; letter-spacing: 2px; }
        form.inline { display: inline; }
        label { display: block; margin: 4px 0; }
        section { margin: 18px 0; }
        </style></head><body>
        """

    static let login = """
        {{> head}}
        <header><h1>Trailbook</h1></header>
        {{#message}}<p class="message" id="message">{{message}}</p>{{/message}}
        <form method="post" action="/login" id="login">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label>User name <input name="user" autocomplete="username" required></label>
        <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
        <button>Sign in</button>
        </form>
        </body></html>
        """

    static let home = """
        {{> head}}
        <header><h1>Trailbook</h1>
        <form method="post" action="/logout" class="inline"><input type="hidden" name="csrf" value="{{csrf}}">
        Signed in as <strong id="me">{{user}}</strong> <button>Sign out</button></form></header>
        {{#message}}<p class="message" id="message">{{message}}</p>{{/message}}
        <section><h2>Friends</h2>
        <svg id="map" role="img" aria-label="Where your friends are"{{#tiles}} data-tiles="/tiles/"{{/tiles}}></svg>
        {{#attribution}}<div class="attribution">{{.}}</div>{{/attribution}}
        <div class="scroll"><table id="friends"><thead><tr><th>Who</th><th>Device</th><th>Last seen</th><th>Motion</th><th>Speed</th><th>Heading</th></tr></thead>
        <tbody>
        {{#friends}}<tr data-user="{{user}}" data-device="{{device}}" data-lat="{{lat}}" data-lon="{{lon}}" data-time="{{time}}">
        <td>{{user}}</td><td>{{device}}</td><td>{{seen}}</td><td>{{moving}}</td><td>{{speed}}</td><td>{{course}}</td></tr>
        {{/friends}}
        </tbody></table></div>
        {{^hasFriends}}<p id="nobody">Nobody shares with you yet: ask a friend for a code and enter it below.</p>{{/hasFriends}}
        </section>
        <section><h2>Share where you are</h2>
        {{#code}}<p>Give this code to the person who should see you; it works once, until {{expires}}:</p>
        <p class="code" id="code">{{code}}</p>{{/code}}
        <form method="post" action="/codes"><input type="hidden" name="csrf" value="{{csrf}}">
        <label><input type="checkbox" name="motion" checked> whether I am moving</label>
        <label><input type="checkbox" name="events"> when I arrive at and leave my places</label>
        <label><input type="checkbox" name="history"> my track of the last <input name="history_hours" value="24" size="3"> hours</label>
        <button>Make a code</button></form>
        <form method="post" action="/redeem"><input type="hidden" name="csrf" value="{{csrf}}">
        <label>A friend's code <input name="code" placeholder="XXXX-XXXX" autocomplete="off" required></label>
        <button>See them</button></form>
        </section>
        <section><h2>Who sees you</h2>
        {{^hasGrants}}<p>Nobody.</p>{{/hasGrants}}
        <table id="grants">{{#grants}}<tr><td>{{viewer}}</td><td>{{scopes}}</td><td>{{state}}</td><td>
        <form method="post" action="/revoke" class="inline"><input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="viewer" value="{{viewer}}"><button>Stop sharing</button></form></td></tr>{{/grants}}</table>
        </section>
        <script src="/live.js"></script>
        </body></html>
        """

    /// The home page's script: draws the friends on the map and keeps rows and map up to date
    /// from `/api/live`. Text goes in with textContent, never as HTML.
    static let script = """
        "use strict";
        const svg = document.getElementById("map");
        const body = document.querySelector("#friends tbody");
        const ns = "http://www.w3.org/2000/svg";
        function key(u, d) { return u + "\\u0000" + d; }
        function rows() { return Array.from(body.querySelectorAll("tr")); }
        // Web Mercator in world units (0 to 1 across), as the tiles are cut.
        function mx(lon) { return (lon + 180) / 360; }
        function my(lat) { const r = lat * Math.PI / 180; return (1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2; }
        function draw() {
          while (svg.firstChild) svg.removeChild(svg.firstChild);
          const points = rows().map(r => ({ lat: +r.dataset.lat, lon: +r.dataset.lon, name: r.dataset.user }));
          const W = svg.clientWidth, H = svg.clientHeight;
          svg.setAttribute("viewBox", "0 0 " + W + " " + H);
          if (!points.length) return;
          let [x0, x1, y0, y1] = [1, 0, 1, 0];
          for (const p of points) {
            x0 = Math.min(x0, mx(p.lon)); x1 = Math.max(x1, mx(p.lon)); y0 = Math.min(y0, my(p.lat)); y1 = Math.max(y1, my(p.lat));
          }
          // Pixels per world unit, with a margin; at most zoom 17's, so one friend is not a blur.
          const scale = Math.min(W * 0.85 / Math.max(x1 - x0, 1e-12), H * 0.85 / Math.max(y1 - y0, 1e-12), 256 * 131072);
          const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
          const X = x => W / 2 + (x - cx) * scale, Y = y => H / 2 + (y - cy) * scale;
          if (svg.dataset.tiles) {
            // The tiles of the zoom drawn at most 256 px, from this server (never a tile server).
            const z = Math.max(0, Math.min(19, Math.ceil(Math.log2(scale / 256)))), n = 1 << z, size = scale / n;
            const c0 = Math.max(0, Math.floor((cx - W / 2 / scale) * n)), c1 = Math.min(n - 1, Math.floor((cx + W / 2 / scale) * n));
            const r0 = Math.max(0, Math.floor((cy - H / 2 / scale) * n)), r1 = Math.min(n - 1, Math.floor((cy + H / 2 / scale) * n));
            for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) {
              const tile = document.createElementNS(ns, "image");
              tile.setAttribute("href", svg.dataset.tiles + z + "/" + c + "/" + r);
              tile.setAttribute("x", X(c / n) - 0.25); tile.setAttribute("y", Y(r / n) - 0.25);
              tile.setAttribute("width", size + 0.5); tile.setAttribute("height", size + 0.5);
              tile.setAttribute("class", "tile");
              svg.appendChild(tile);
            }
          }
          for (const p of points) {
            const x = X(mx(p.lon)), y = Y(my(p.lat));
            const dot = document.createElementNS(ns, "circle");
            dot.setAttribute("cx", x); dot.setAttribute("cy", y); dot.setAttribute("r", 7);
            dot.setAttribute("fill", "#1f6feb"); dot.setAttribute("stroke", "#fff"); dot.setAttribute("stroke-width", 2);
            dot.setAttribute("class", "friend");
            const label = document.createElementNS(ns, "text");
            label.setAttribute("x", x + 10); label.setAttribute("y", y + 5); label.setAttribute("font-size", 14);
            label.textContent = p.name;
            svg.appendChild(dot); svg.appendChild(label);
          }
        }
        function show(f) {
          let row = rows().find(r => key(r.dataset.user, r.dataset.device) === key(f.user, f.device));
          if (!row) {
            row = document.createElement("tr");
            for (let i = 0; i < 6; i++) row.appendChild(document.createElement("td"));
            body.appendChild(row);
            const nobody = document.getElementById("nobody");
            if (nobody) nobody.remove();
          }
          row.dataset.user = f.user; row.dataset.device = f.device;
          row.dataset.lat = f.lat; row.dataset.lon = f.lon; row.dataset.time = f.time;
          const cells = row.querySelectorAll("td");
          cells[0].textContent = f.user; cells[1].textContent = f.device; cells[2].textContent = "just now";
          cells[3].textContent = f.moving === undefined ? "" : (f.moving ? "moving" : "still");
          cells[4].textContent = f.speed === undefined ? "" : Math.round(f.speed * 3.6) + " km/h";
          cells[5].textContent = f.course === undefined ? "" : Math.round(f.course) + "°";
          draw();
        }
        draw();
        const live = new EventSource("/api/live");
        live.addEventListener("position", e => show(JSON.parse(e.data)));
        """
}
