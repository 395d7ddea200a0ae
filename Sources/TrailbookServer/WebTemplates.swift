import PageTemplates

/// The Mustache templates of the server's pages (through ``PageTemplates``, which escapes what
/// they insert) and the page script.
enum WebTemplates {
    static let pages = PageTemplates([
        (name: "head", text: head), ("login", login), ("home", home), ("calendar", calendar), ("confirm", confirm),
        ("export", export), ("import", importPage), ("settings", settings), ("paired", paired),
    ])

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
        .mapwrap { position: relative; }
        #map { display: block; width: 100%; height: 320px; background: #eef2ee; border: 1px solid #ccc; box-sizing: border-box; touch-action: none; cursor: grab; }
        #map:focus { outline: 2px solid #1f6feb; }
        .mapctl { position: absolute; top: 8px; right: 8px; display: flex; flex-direction: column; gap: 4px; }
        .mapctl button { width: 34px; height: 34px; font-size: 20px; line-height: 1; border-radius: 6px; border: 1px solid #bbb; background: #fff; cursor: pointer; }
        .maptip { display: none; position: absolute; z-index: 2; padding: 4px 8px; border-radius: 6px; font-size: 13px; white-space: nowrap; pointer-events: none; background: #fff; box-shadow: 0 1px 4px rgba(0,0,0,.3); }
        .scroll { overflow-x: auto; }
        tr.offline td { color: #8a8a8a; }
        .attribution { font-size: .8em; opacity: .75; text-align: right; }
        @media (max-width: 600px) { #map { height: 240px; } th, td { padding: 4px 3px; }
          #friends th:nth-child(n+5), #friends td:nth-child(n+5) { display: none; } #friends td { white-space: normal; } }
        .message { background: #fff4c2; padding: 6px 10px; }
        .code { font: 700 28px/1.2 ui-monospace, monospace; letter-spacing: 2px; }
        form.inline { display: inline; }
        label { display: block; margin: 4px 0; }
        section { margin: 18px 0; }
        nav.days { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; margin: 4px 0 10px; }
        nav.days form { margin: 0; } nav.days label { display: inline; }
        input, button, textarea { font: inherit; }
        .signin { max-width: 340px; margin: 12vh auto 0; padding: 24px; border-radius: 10px; background: #fff; box-shadow: 0 2px 12px rgba(0,0,0,.12); }
        .signin h1 { margin-top: 0; } .signin input { width: 100%; box-sizing: border-box; padding: 8px; margin-top: 4px; border: 1px solid #bbb; border-radius: 6px; }
        .signin button { width: 100%; padding: 10px; margin-top: 12px; border: 0; border-radius: 6px; background: #1f6feb; color: #fff; font-weight: 600; cursor: pointer; }
        body.login { background: #eef2f6; max-width: none; }
        .months { display: grid; grid-template-columns: repeat(auto-fill, minmax(160px, 1fr)); gap: 14px 18px; }
        .month h3 { margin: 0 0 4px; font-size: 1em; }
        .weeks { display: grid; grid-template-columns: repeat(7, 1fr); gap: 2px; }
        .weeks span, .weeks a { display: block; aspect-ratio: 1; font-size: 11px; line-height: 1; padding: 3px; box-sizing: border-box; border-radius: 3px; text-decoration: none; color: #1b1b1b; }
        .weeks .wd { aspect-ratio: auto; text-align: center; opacity: .6; }
        .l0 { background: #eceff1; } .l1 { background: #c6e0f5; } .l2 { background: #8cc0ea; } .l3 { background: #4a93d6; color: #fff !important; } .l4 { background: #1f5fa8; color: #fff !important; }
        .weeks a.today { outline: 2px solid #d62728; }
        .legend .key { white-space: nowrap; margin-right: 6px; }
        .legend .key span { display: inline-block; width: 14px; height: 14px; border-radius: 3px; vertical-align: middle; }
        @media (prefers-color-scheme: dark) {
          body { background: #15181c; color: #e6e6e6; } a { color: #8ab4f8; }
          th, td { border-bottom-color: #333a44; } #map { background: #232830; border-color: #3a414c; }
          .mapctl button { background: #2a3038; color: #e6e6e6; border-color: #4a525e; }
          .maptip { background: #2a3038; color: #e6e6e6; } .message { background: #4a4020; }
          .signin { background: #1e232a; } body.login { background: #101317; }
          .signin input { background: #15181c; color: #e6e6e6; border-color: #4a525e; }
          input, select, textarea, button { background: #2a3038; color: #e6e6e6; border: 1px solid #4a525e; }
          .weeks span, .weeks a { color: #e6e6e6; } .l0 { background: #262b33; } .l1 { background: #23415e; }
          .l2 { background: #2b6399; } #map text { fill: #e6e6e6; } #map .tile { filter: invert(1) hue-rotate(180deg) brightness(.85) contrast(.9); }
        }
        .qrbox svg { width: 220px; max-width: 100%; height: auto; } .url code { word-break: break-all; }
        #token { word-break: break-all; font-size: 20px; }
        button.danger { background: #b42318; color: #fff; border: 0; border-radius: 6px; padding: 8px 14px; cursor: pointer; }
        </style></head><body{{#bodyClass}} class="{{.}}"{{/bodyClass}}>
        """

    static let login = """
        {{> head}}
        <main class="signin"><h1>Trailbook</h1>
        <p>Sign in to see your days and your friends.</p>
        {{#message}}<p class="message" id="message" role="alert">{{message}}</p>{{/message}}
        <form method="post" action="/login" id="login">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label>User name <input name="user" autocomplete="username" required autofocus></label>
        <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
        <button>Sign in</button>
        </form></main>
        </body></html>
        """

    static let home = """
        {{> head}}
        <header><h1>Trailbook</h1>
        <form method="post" action="/logout" class="inline"><input type="hidden" name="csrf" value="{{csrf}}">
        Signed in as <strong id="me">{{user}}</strong> <button>Sign out</button></form></header>
        <nav class="days"><a href="/day/{{today}}" id="today">Today’s diary</a><a href="/days">The last 7 days</a><a href="/calendar">Calendar</a><a href="/import">Import</a><a href="/export">Export</a><a href="/settings">Settings</a><form method="get" action="/day">\
        <label>Another day <input type="date" name="date" value="{{today}}" required></label> <button>Show</button></form></nav>
        {{#message}}<p class="message" id="message">{{message}}</p>{{/message}}
        <section><h2>Today</h2>
        <p class="muted" id="todaynote">{{todayNote}}</p>
        <div class="mapwrap"><svg id="map" role="img" tabindex="0" aria-label="Your track today and where your friends \
        are (drag to pan; wheel, pinch, + and − to zoom; 0 to fit and follow)"{{#tiles}} data-tiles="/tiles/"{{/tiles}} \
        data-track="{{track}}" data-shared="{{shared}}"></svg>\
        <div class="mapctl"><button type="button" data-map="in" aria-label="Zoom in">+</button>\
        <button type="button" data-map="out" aria-label="Zoom out">−</button>\
        <button type="button" data-map="fit" aria-label="Fit to your friends and follow them">⤢</button></div>\
        <div id="maptip" class="maptip" role="status"></div></div>
        {{#attribution}}<div class="attribution">{{.}}</div>{{/attribution}}
        <div class="scroll"><table id="friends" data-moving-within="{{movingWithin}}" data-offline-after="{{offlineAfter}}"><thead><tr><th>Who</th><th>Device</th><th>Last seen</th><th>Motion</th><th>Speed</th><th>Heading</th></tr></thead>
        <tbody>
        {{#own}}<tr class="self" data-user="{{user}}" data-device="{{device}}" data-lat="{{lat}}" data-lon="{{lon}}" \
        data-time="{{time}}" data-motion=""><td>you</td><td>{{device}}</td><td>{{seen}}</td><td></td><td>{{speed}}</td>\
        <td>{{course}}</td></tr>
        {{/own}}{{#friends}}<tr data-user="{{user}}" data-device="{{device}}" data-lat="{{lat}}" data-lon="{{lon}}" data-time="{{time}}" \
        data-motion="{{motion}}"{{#offline}} class="offline"{{/offline}}>
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

    /// A year of the account's diary: months of days shaded by how long was recorded (see
    /// ``DiaryCalendar/Day/level``), each linked to its day page.
    static let calendar = """
        {{> head}}
        <header><h1>{{year}}</h1><span>signed in as <strong id="me">{{user}}</strong></span></header>
        <nav class="days"><a href="/">Home</a><a href="/day/{{today}}">Today’s diary</a>\
        <a href="/calendar?year={{previous}}" rel="prev">← {{previous}}</a><a href="/calendar?year={{next}}" rel="next">{{next}} →</a></nav>
        <p id="totals">{{totals}}</p>
        <p class="legend">Time recorded: <span class="key"><span class="l0"></span> none</span> <span class="key">\
        <span class="l1"></span> under 15 min</span> <span class="key"><span class="l2"></span> under an hour</span> \
        <span class="key"><span class="l3"></span> under 3 h</span> <span class="key"><span class="l4"></span> more</span></p>
        <div class="months" id="calendar">{{#months}}<section class="month"><h3><a href="/days?from={{from}}&amp;to={{to}}" \
        title="{{name}} on one map">{{name}}</a></h3><div class="weeks">\
        <span class="wd">M</span><span class="wd">T</span><span class="wd">W</span><span class="wd">T</span>\
        <span class="wd">F</span><span class="wd">S</span><span class="wd">S</span>\
        {{#cells}}{{#blank}}<span></span>{{/blank}}{{^blank}}<a href="/day/{{date}}" class="l{{level}}{{#today}} today{{/today}}" \
        title="{{label}}" aria-label="{{label}}">{{day}}</a>{{/blank}}{{/cells}}</div></section>{{/months}}</div>
        </body></html>
        """

    /// The question before something is removed for good: what goes, and the form that removes it.
    static let confirm = """
        {{> head}}
        <header><h1>Delete {{what}}?</h1><span>signed in as <strong id="me">{{user}}</strong></span></header>
        <p>This removes for good (photos no other record uses are deleted too):</p>
        <ul id="removes">{{#lines}}<li>{{.}}</li>{{/lines}}</ul>
        <form method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{csrf}}">\
        <button class="danger">Delete for good</button> <a href="{{back}}">Keep it</a></form>
        </body></html>
        """

    /// Export: a range of days as GPX, GeoJSON or KML (a GET form, so the browser downloads it).
    static let export = """
        {{> head}}
        <header><h1>Export</h1><span>signed in as <strong id="me">{{user}}</strong></span></header>
        <nav class="days"><a href="/">Home</a><a href="/day/{{today}}">Today’s diary</a><a href="/calendar">Calendar</a></nav>
        <p>Your rides of the days from … to … (both included), each record a waypoint with its notes and fields.</p>
        {{#message}}<p class="message" id="message" role="alert">{{.}}</p>{{/message}}
        <form method="get" action="/export" id="export"><label>From <input type="date" name="from" value="{{from}}" \
        required></label><label>To <input type="date" name="to" value="{{to}}" required></label>\
        <label>Format <select name="format"><option value="gpx">GPX 1.1 (most apps)</option>\
        <option value="geojson">GeoJSON</option><option value="kml">KML (Google Earth)</option></select></label>\
        <button>Download</button></form>
        </body></html>
        """

    /// Import: a file into the account, with the upload's progress and the import's summary.
    static let importPage = """
        {{> head}}
        <header><h1>Import</h1><span>signed in as <strong id="me">{{user}}</strong></span></header>
        <nav class="days"><a href="/">Home</a><a href="/day/{{today}}">Today’s diary</a><a href="/calendar">Calendar</a></nav>
        <p>NMEA logs (.nmea, .log, .txt), GPX, JSON tracks, each also gzip-compressed; at most {{limit}} MiB. The points \
        go through your collection rules, as <code>trailbook import</code> does; a file imported before is skipped.</p>
        <form id="import" data-csrf="{{csrf}}"><label>File <input type="file" name="file" id="file" required></label>\
        <button id="send">Import</button></form>
        <progress id="progress" max="100" value="0" hidden></progress>
        <p id="status" role="status"></p>
        <table id="summary" hidden><tbody></tbody></table>
        <noscript><p>This page needs JavaScript to send the file; or run trailbook import --user {{user}} FILE on the \
        server.</p></noscript>
        <script src="/import.js"></script>
        </body></html>
        """

    /// The import page's script: the file goes as the request's body (no multipart), with the
    /// session's CSRF token; the upload's progress, then what the import did, as text.
    static let importScript = """
        "use strict";
        const form = document.getElementById("import"), file = document.getElementById("file");
        const progress = document.getElementById("progress"), status = document.getElementById("status");
        const summary = document.getElementById("summary");
        function row(name, value) {
          const tr = document.createElement("tr"), th = document.createElement("th"), td = document.createElement("td");
          th.textContent = name; td.textContent = value; tr.appendChild(th); tr.appendChild(td);
          summary.tBodies[0].appendChild(tr);
        }
        form.addEventListener("submit", e => {
          e.preventDefault();
          const chosen = file.files[0];
          if (!chosen) { status.textContent = "Choose a file first."; return; }
          const xhr = new XMLHttpRequest();
          xhr.open("POST", "/import?name=" + encodeURIComponent(chosen.name));
          xhr.setRequestHeader("X-CSRF-Token", form.dataset.csrf);
          progress.hidden = false; progress.value = 0; summary.hidden = true;
          summary.tBodies[0].replaceChildren();
          status.textContent = "Sending " + chosen.name + "…";
          xhr.upload.addEventListener("progress", p => {
            if (p.lengthComputable) progress.value = Math.round(p.loaded / p.total * 100);
          });
          xhr.upload.addEventListener("load", () => { status.textContent = "Importing " + chosen.name + "…"; });
          xhr.addEventListener("load", () => {
            progress.value = 100;
            let answer = null;
            try { answer = JSON.parse(xhr.responseText); } catch (_) { }
            if (xhr.status !== 200 || !answer) {
              status.textContent = (answer && answer.error && answer.error.message) || "The import failed (" + xhr.status + ").";
              return;
            }
            if (answer.already_imported) {
              status.textContent = chosen.name + " was imported before (" + answer.already_imported.points + " points); nothing changed.";
              return;
            }
            status.textContent = chosen.name + " is imported.";
            row("Fixes read", answer.fixes_read); row("Kept", answer.kept); row("Stored", answer.stored);
            for (const [reason, n] of Object.entries(answer.dropped || {})) row("Dropped: " + reason.replace(/_/g, " "), n);
            row("Rides", answer.rides);
            summary.hidden = false;
          });
          xhr.addEventListener("error", () => { status.textContent = "The upload broke off; try again."; });
          xhr.send(chosen);
        });
        """

    /// The account's devices and password.
    static let settings = """
        {{> head}}
        <header><h1>Settings</h1><span>signed in as <strong id="me">{{user}}</strong></span></header>
        <nav class="days"><a href="/">Home</a><a href="/day/{{today}}">Today’s diary</a><a href="/calendar">Calendar</a></nav>
        {{#message}}<p class="message" id="message" role="status">{{.}}</p>{{/message}}
        <section><h2>Devices</h2>
        <div class="scroll"><table id="devices"><thead><tr><th>Device</th><th>Added</th><th>State</th><th></th></tr></thead><tbody>
        {{#devices}}<tr><td>{{name}}</td><td>{{added}}</td><td>{{state}}</td><td>{{#live}}<form method="post" \
        action="/devices/revoke" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" \
        name="name" value="{{name}}"><button>Revoke</button></form>{{/live}}</td></tr>
        {{/devices}}</tbody></table></div>
        <form method="post" action="/devices" id="add-device"><input type="hidden" name="csrf" value="{{csrf}}">\
        <label>A new device’s name <input name="name" required maxlength="64" placeholder="phone"></label>\
        <button>Add it and pair a phone</button></form></section>
        <section><h2>Password</h2>
        <form method="post" action="/password" id="password"><input type="hidden" name="csrf" value="{{csrf}}">\
        <label>Current password <input type="password" name="current" autocomplete="current-password" required></label>\
        <label>New password (at least {{minimum}} characters) <input type="password" name="new" \
        autocomplete="new-password" minlength="{{minimum}}" required></label><label>The new password again \
        <input type="password" name="again" autocomplete="new-password" required></label><button>Change it</button></form>
        </section>
        </body></html>
        """

    /// A device just added: its token, shown this once, and how each phone app is paired with it.
    static let paired = """
        {{> head}}
        <header><h1>Pair {{device}}</h1><span>signed in as <strong id="me">{{user}}</strong></span></header>
        <nav class="days"><a href="/">Home</a><a href="/settings">Settings</a></nav>
        <p>The device’s token, shown only now (it is its password: keep it like one):</p>
        <p class="code" id="token">{{token}}</p>
        {{#apps}}<section class="app"><h2>{{app}}</h2><p>{{how}}</p><div class="qrbox">{{#qr}}<svg xmlns="http://www.w3.org/2000/svg" \
        viewBox="0 0 {{side}} {{side}}" class="qr" role="img" aria-label="{{label}}" shape-rendering="crispEdges">\
        <rect width="{{side}}" height="{{side}}" fill="#fff"/><path d="{{path}}" fill="#000"/></svg>{{/qr}}</div>\
        <p class="url"><code>{{text}}</code></p></section>
        {{/apps}}
        </body></html>
        """

    /// The home page's script: draws the friends on the map and keeps rows and map up to date
    /// from `/api/live`; every 5 s it writes each friend's real age ("12 s ago", "5 min ago"),
    /// "silent since HH:MM" instead of the motion once the newest fix is older than
    /// `events.moving_within`, and greys a friend silent for longer than `events.offline_after`.
    /// Text goes in with textContent, never as HTML. The map follows the friends
    /// (fits them at every position) until the reader pans or zooms it (drag, wheel, pinch, + and
    /// − buttons or keys, arrows); ⤢ or 0 fits and follows again. Pointing at a friend's dot (or
    /// tapping it) shows who, which device, when, motion and speed. With tiles, the zoom's tiles
    /// come from this server.
    static let script = """
        "use strict";
        const svg = document.getElementById("map");
        const body = document.querySelector("#friends tbody");
        const tip = document.getElementById("maptip");
        const ns = "http://www.w3.org/2000/svg";
        // Pixels per world unit (the world is 1 across): zoom 0's and zoom 19's.
        const MIN = 256, MAX = 256 * 524288;
        let view = null, follow = true, dots = [];
        function key(u, d) { return u + "\\u0000" + d; }
        function rows() { return Array.from(body.querySelectorAll("tr")); }
        // Web Mercator in world units (0 to 1 across), as the tiles are cut.
        function mx(lon) { return (lon + 180) / 360; }
        function my(lat) { const r = lat * Math.PI / 180; return (1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2; }
        function size() { return { W: svg.clientWidth || 1, H: svg.clientHeight || 1 }; }
        function friends() {
          return rows().filter(r => r.dataset.lat !== undefined && r.dataset.lat !== "").map(r => ({
            x: mx(+r.dataset.lon), y: my(+r.dataset.lat), row: r }));
        }
        // The reader's own track today: lines of [lon, lat], in world units.
        const track = JSON.parse(svg.dataset.track || "[]").map(l => l.map(p => ({ x: mx(p[0]), y: my(p[1]) })));
        // Friends' shared history (those whose grant lets the reader see it): lines per friend.
        const shared = JSON.parse(svg.dataset.shared || "[]").map(f => ({
          user: f.user, lines: f.lines.map(l => l.map(p => ({ x: mx(p[0]), y: my(p[1]) }))) }));
        // The view that shows every friend, with a margin; at most zoom 17's, so one friend is not a blur.
        function fitted(points) {
          const { W, H } = size();
          let [x0, x1, y0, y1] = [1, 0, 1, 0];
          for (const p of points) { x0 = Math.min(x0, p.x); x1 = Math.max(x1, p.x); y0 = Math.min(y0, p.y); y1 = Math.max(y1, p.y); }
          const scale = Math.min(W * 0.85 / Math.max(x1 - x0, 1e-12), H * 0.85 / Math.max(y1 - y0, 1e-12), 256 * 131072);
          return { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, scale: Math.max(MIN, scale) };
        }
        function draw() {
          while (svg.firstChild) svg.removeChild(svg.firstChild);
          const { W, H } = size();
          svg.setAttribute("viewBox", "0 0 " + W + " " + H);
          const points = friends(), all = points.concat(...track, ...shared.flatMap(f => f.lines));
          if (follow || !view) view = all.length ? fitted(all) : null;
          svg.dataset.follow = follow;
          if (!view) return;
          const { cx, cy, scale } = view;
          const X = x => W / 2 + (x - cx) * scale, Y = y => H / 2 + (y - cy) * scale;
          // The tiles of the zoom drawn at most 256 px, from this server (never a tile server).
          const z = Math.max(0, Math.min(19, Math.ceil(Math.log2(scale / 256) - 1e-9))), n = 1 << z, s = scale / n;
          svg.dataset.zoom = z;
          if (svg.dataset.tiles) {
            const c0 = Math.max(0, Math.floor((cx - W / 2 / scale) * n)), c1 = Math.min(n - 1, Math.floor((cx + W / 2 / scale) * n));
            const r0 = Math.max(0, Math.floor((cy - H / 2 / scale) * n)), r1 = Math.min(n - 1, Math.floor((cy + H / 2 / scale) * n));
            for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) {
              const tile = document.createElementNS(ns, "image");
              tile.setAttribute("href", svg.dataset.tiles + z + "/" + c + "/" + r);
              tile.setAttribute("x", X(c / n) - 0.25); tile.setAttribute("y", Y(r / n) - 0.25);
              tile.setAttribute("width", s + 0.5); tile.setAttribute("height", s + 0.5);
              tile.setAttribute("class", "tile");
              svg.appendChild(tile);
            }
          }
          function line(points, kind, colour, width, who) {
            if (points.length < 2) return;
            const path = document.createElementNS(ns, "path");
            path.setAttribute("d", points.map((p, i) => (i ? "L" : "M") + X(p.x).toFixed(1) + " " + Y(p.y).toFixed(1)).join(""));
            path.setAttribute("class", kind); path.setAttribute("fill", "none"); path.setAttribute("stroke", colour);
            path.setAttribute("stroke-width", width); path.setAttribute("stroke-linejoin", "round"); path.setAttribute("stroke-linecap", "round");
            if (who) path.dataset.user = who;
            svg.appendChild(path);
          }
          for (const f of shared) for (const l of f.lines) line(l, "shared", "#1f6feb", 2, f.user);
          for (const l of track) line(l, "track", "#d62728", 3);
          dots = [];
          for (const p of points) {
            const x = X(p.x), y = Y(p.y);
            const dot = document.createElementNS(ns, "circle");
            dot.setAttribute("cx", x); dot.setAttribute("cy", y); dot.setAttribute("r", 7);
            const grey = p.row.classList.contains("offline"), self = p.row.classList.contains("self");
            dot.setAttribute("fill", self ? "#d62728" : grey ? "#9a9a9a" : "#1f6feb"); dot.setAttribute("stroke", "#fff"); dot.setAttribute("stroke-width", 2);
            dot.setAttribute("class", self ? "self" : grey ? "friend offline" : "friend");
            const label = document.createElementNS(ns, "text");
            label.setAttribute("x", x + 10); label.setAttribute("y", y + 5); label.setAttribute("font-size", 14);
            label.textContent = (self ? "you" : p.row.dataset.user) + " \\u00b7 " + p.row.dataset.device;
            // Near the right edge the name goes on the dot's left, so it is not cut off.
            if (x > W * 0.6) { label.setAttribute("x", x - 10); label.setAttribute("text-anchor", "end"); }
            svg.appendChild(dot); svg.appendChild(label);
            dots.push({ x, y, row: p.row });
          }
        }
        // The map's own moves: the reader has taken it over, so it stops following.
        function local(cx, cy) { const b = svg.getBoundingClientRect(); return { px: cx - b.left, py: cy - b.top }; }
        function zoom(f, clientX, clientY) {
          if (!view) return;
          const { W, H } = size();
          const { px, py } = clientX === undefined ? { px: W / 2, py: H / 2 } : local(clientX, clientY);
          const wx = view.cx + (px - W / 2) / view.scale, wy = view.cy + (py - H / 2) / view.scale;
          const scale = Math.max(MIN, Math.min(MAX, view.scale * f));
          view = { cx: wx - (px - W / 2) / scale, cy: wy - (py - H / 2) / scale, scale };
          follow = false; draw();
        }
        function pan(dx, dy) {
          if (!view) return;
          view.cx = Math.max(0, Math.min(1, view.cx + dx / view.scale));
          view.cy = Math.max(0, Math.min(1, view.cy + dy / view.scale));
          follow = false; draw();
        }
        function fit() { follow = true; draw(); }
        function when(t) {
          const d = new Date(t);
          if (isNaN(d)) return "";
          const two = v => (v < 10 ? "0" : "") + v;
          return two(d.getHours()) + ":" + two(d.getMinutes());
        }
        function hover(clientX, clientY) {
          const { px, py } = local(clientX, clientY);
          let best = null, bd = 16 * 16;
          for (const d of dots) { const e = (d.x - px) ** 2 + (d.y - py) ** 2; if (e <= bd) { bd = e; best = d; } }
          if (!best) { tip.style.display = "none"; return; }
          const r = best.row, cells = r.querySelectorAll("td");
          const parts = [r.dataset.user, r.dataset.device, when(r.dataset.time)];
          for (const i of [3, 4]) if (cells[i] && cells[i].textContent) parts.push(cells[i].textContent);
          tip.textContent = parts.filter(Boolean).join(" \\u00b7 ");
          tip.style.display = "block";
          const w = svg.clientWidth;
          tip.style.left = Math.max(0, Math.min(px + 12, w - tip.offsetWidth - 4)) + "px";
          tip.style.top = (py + 12) + "px";
        }
        svg.addEventListener("wheel", e => { e.preventDefault(); zoom(e.deltaY < 0 ? 1.25 : 0.8, e.clientX, e.clientY); }, { passive: false });
        const down = new Map();
        let moved = false, pinch = 0;
        svg.addEventListener("pointerdown", e => {
          down.set(e.pointerId, { x: e.clientX, y: e.clientY }); moved = false;
          if (down.size === 2) { const [a, b] = [...down.values()]; pinch = Math.hypot(a.x - b.x, a.y - b.y); }
        });
        svg.addEventListener("pointermove", e => {
          const d = down.get(e.pointerId);
          if (!d) { hover(e.clientX, e.clientY); return; }
          if (down.size === 2) {
            d.x = e.clientX; d.y = e.clientY;
            const [a, b] = [...down.values()], n = Math.hypot(a.x - b.x, a.y - b.y);
            if (pinch > 0) zoom(n / pinch, (a.x + b.x) / 2, (a.y + b.y) / 2);
            pinch = n; moved = true; return;
          }
          if (Math.abs(e.clientX - d.x) + Math.abs(e.clientY - d.y) > 3 && !moved) {
            moved = true; if (svg.setPointerCapture) svg.setPointerCapture(e.pointerId);
          }
          if (moved) { pan(d.x - e.clientX, d.y - e.clientY); d.x = e.clientX; d.y = e.clientY; }
        });
        function up(e) { const d = down.get(e.pointerId); down.delete(e.pointerId); pinch = 0; if (d && !moved) hover(e.clientX, e.clientY); }
        svg.addEventListener("pointerup", up); svg.addEventListener("pointercancel", up);
        svg.addEventListener("pointerleave", () => { tip.style.display = "none"; });
        svg.addEventListener("keydown", e => {
          const s = svg.clientWidth / 10, k = e.key;
          if (k === "+" || k === "=") zoom(1.25); else if (k === "-" || k === "_") zoom(0.8); else if (k === "0") fit();
          else if (k === "ArrowLeft") pan(-s, 0); else if (k === "ArrowRight") pan(s, 0);
          else if (k === "ArrowUp") pan(0, -s); else if (k === "ArrowDown") pan(0, s); else return;
          e.preventDefault();
        });
        document.querySelectorAll("[data-map]").forEach(b => b.addEventListener("click", () => {
          const a = b.dataset.map; if (a === "in") zoom(1.25); else if (a === "out") zoom(0.8); else fit();
        }));
        addEventListener("resize", draw);
        // The age of each friend's newest fix, its motion while that is recent, grey once silent.
        const table = document.getElementById("friends");
        const within = +table.dataset.movingWithin || 120, offline = +table.dataset.offlineAfter || 600;
        function ago(s) {
          s = Math.max(0, s);
          if (s < 60) return Math.floor(s) + " s ago";
          if (s < 3600) return Math.floor(s / 60) + " min ago";
          if (s < 172800) return Math.floor(s / 3600) + " h ago";
          return Math.floor(s / 86400) + " days ago";
        }
        function age(row) {
          const t = Date.parse(row.dataset.time);
          return isNaN(t) ? null : (Date.now() - t) / 1000;
        }
        function refresh() {
          let greyed = false;
          for (const row of rows()) {
            const s = age(row), cells = row.querySelectorAll("td");
            if (s === null || cells.length < 4) continue;
            cells[2].textContent = ago(s);
            const motion = row.dataset.motion || "";
            cells[3].textContent = motion === "" ? "" : s > within ? "silent since " + when(row.dataset.time) : motion;
            const was = row.classList.contains("offline");
            row.classList.toggle("offline", s > offline && !row.classList.contains("self"));
            if (was !== row.classList.contains("offline")) greyed = true;
          }
          if (greyed) draw();
        }
        setInterval(refresh, 5000);
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
          row.dataset.motion = f.moving === undefined ? "" : (f.moving ? "moving" : "still");
          const cells = row.querySelectorAll("td");
          cells[0].textContent = f.user; cells[1].textContent = f.device;
          cells[4].textContent = f.speed === undefined ? "" : Math.round(f.speed * 3.6) + " km/h";
          cells[5].textContent = f.course === undefined ? "" : Math.round(f.course) + "°";
          refresh();
          draw();
        }
        refresh();
        draw();
        const live = new EventSource("/api/live");
        live.addEventListener("position", e => show(JSON.parse(e.data)));
        """
}
