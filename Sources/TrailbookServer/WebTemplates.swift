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
        <svg id="map" role="img" aria-label="Where your friends are"></svg>
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
        function draw() {
          while (svg.firstChild) svg.removeChild(svg.firstChild);
          const points = rows().map(r => ({ lat: +r.dataset.lat, lon: +r.dataset.lon, name: r.dataset.user }));
          const W = svg.clientWidth, H = svg.clientHeight;
          svg.setAttribute("viewBox", "0 0 " + W + " " + H);
          if (!points.length) return;
          let [s, n, w, e] = [90, -90, 180, -180];
          for (const p of points) { s = Math.min(s, p.lat); n = Math.max(n, p.lat); w = Math.min(w, p.lon); e = Math.max(e, p.lon); }
          const k = Math.cos((s + n) / 2 * Math.PI / 180);
          // Degrees per pixel, with a margin; at least ~50 m across so one friend is not a blur.
          const span = Math.max((e - w) * k / (W * 0.85), (n - s) / (H * 0.85), 0.0005 / H);
          const cx = (w + e) / 2, cy = (s + n) / 2;
          for (const p of points) {
            const x = W / 2 + (p.lon - cx) * k / span, y = H / 2 - (p.lat - cy) / span;
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
