import PageTemplates
import Reports

/// The Mustache templates of the server's pages (through ``PageTemplates``, which escapes what
/// they insert) and the page script.
enum WebTemplates {
    static let pages = PageTemplates(
        [
            (name: "head", text: head), ("login", login), ("livemap", livemap), ("livemap-map", livemapMap),
            ("livemap-table", livemapTable),
        ]
            + [
                (name: "home", text: home, tab: "home"), ("calendar", calendar, "calendar"), ("confirm", confirm, ""),
                ("export", export, "export"), ("import", importPage, "import"), ("settings", settings, "settings"),
                ("paired", paired, "settings"), ("places", places, "places"), ("alerts", alerts, "alerts"),
                ("friends", friends, "friends"), ("heatmap", heatmap, "year"), ("year", year, "year"),
                ("placehistory", placeHistory, "places"),
            ].map { page in
                // Each signed-in page opens with the app's bar, its own tab marked.
                (
                    name: page.name,
                    text: page.text.replacingOccurrences(
                        of: "{{> head}}", with: "{{> head}}" + AppStyle.bar(current: page.tab))
                )
            })

    static let head = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{#title}}{{.}} · {{/title}}Trailbook</title>
        <link rel="stylesheet" href="/app.css"><link rel="icon" href="/favicon.ico" sizes="32x32">
        <link rel="icon" href="/icon.svg" type="image/svg+xml"><link rel="manifest" href="/manifest.webmanifest">
        <meta name="theme-color" content="#0a63c2">
        </head><body{{#bodyClass}} class="{{.}}"{{/bodyClass}}>
        """

    static let login = """
        {{> head}}
        <main class="signin"><h1>Trailbook</h1>
        <p>Sign in to see your days and your friends.</p>
        {{#message}}<p class="message" id="message" role="alert">{{message}}</p>{{/message}}
        <form method="post" action="/login" id="login">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label>User name <input name="user" value="{{user}}" autocomplete="username" required{{^user}} autofocus{{/user}}></label>
        <label>Password <input name="password" type="password" autocomplete="current-password" required{{#user}} autofocus{{/user}}></label>
        <button>Sign in</button>
        </form></main>
        </body></html>
        """

    /// The home page: the live map filling the window (your track today, your devices, your friends),
    /// and beside it (or as a sheet on a phone) who is where, sharing and the way to the days.
    static let home = """
        {{> head}}
        <div class="mapfirst">{{> livemap-map}}
        <aside class="panel" id="panel" aria-label="Today">\
        <button type="button" class="grip" id="grip" aria-expanded="false" aria-controls="panel" \
        aria-label="Show more"></button>
        <header class="panelhead"><h1>Today</h1><form method="post" action="/logout" class="inline">\
        <input type="hidden" name="csrf" value="{{csrf}}"><span class="muted">signed in as <strong id="me">{{user}}</strong></span> \
        <button class="quiet">Sign out</button></form></header>
        {{#message}}<p class="message" id="message">{{message}}</p>{{/message}}
        <p class="muted" id="todaynote">{{todayNote}}</p>
        <nav class="days"><a href="/day/{{today}}" id="today">Today’s diary</a><a href="/days">The last 7 days</a>\
        <a href="/heatmap">Heat map</a><form method="get" action="/day"><input type="date" name="date" value="{{today}}" \
        required aria-label="Another day"> <button class="quiet">Show</button></form></nav>
        {{> livemap-table}}
        {{^hasFriends}}<p id="nobody">Nobody shares with you yet: ask a friend for a code and enter it below.</p>{{/hasFriends}}
        <section id="share"><h2>Share where you are</h2>
        {{#code}}<p>Give this code to the person who should see you; it works once, until {{expires}}:</p>
        <p class="code" id="code">{{code}}</p>{{/code}}
        <form method="post" action="/codes"><input type="hidden" name="csrf" value="{{csrf}}">
        <label><input type="checkbox" name="motion" checked> whether I am moving</label>
        <label><input type="checkbox" name="events"> when I arrive at and leave my places</label>
        <label><input type="checkbox" name="history"> my track of the last <input name="history_hours" value="24" size="3" \
        aria-label="hours"> hours</label>
        <button>Make a code</button></form>
        <form method="post" action="/redeem"><input type="hidden" name="csrf" value="{{csrf}}">
        <label>A friend's code <input name="code" placeholder="XXXX-XXXX" autocomplete="off" required></label>
        <button>See them</button></form>
        </section>
        <section><h2>Who sees you</h2>
        {{^hasGrants}}<p>Nobody.</p>{{/hasGrants}}
        <table id="grants" class="cards">{{#grants}}<tr><td>{{viewer}}</td><td>{{scopes}}</td><td>{{state}}</td><td>
        <form method="post" action="/revoke" class="inline"><input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="viewer" value="{{viewer}}"><button class="quiet">Stop sharing</button></form></td></tr>{{/grants}}</table>
        </section></aside></div>
        <script src="/map.js"></script><script src="/live.js"></script>
        </body></html>
        """

    /// A year of the account's diary: months of days shaded by how long was recorded (see
    /// ``DiaryCalendar/Day/level``), each linked to its day page.
    static let calendar = """
        {{> head}}
        <header><h1>{{year}}</h1><span>signed in as <strong id="me">{{user}}</strong></span></header>
        <nav class="days"><a href="/">Home</a><a href="/day/{{today}}">Today’s diary</a>\
        <a href="/calendar?year={{previous}}" rel="prev">← {{previous}}</a><a href="/calendar?year={{next}}" rel="next">{{next}} →</a>        <a href="/year?year={{year}}" id="review">{{year}} in review</a></nav>
        <p id="totals">{{totals}}</p>
        <p class="legend">Time recorded: <span class="key"><span class="l0"></span> none</span> <span class="key">\
        <span class="l1"></span> under 15 min</span> <span class="key"><span class="l2"></span> under an hour</span> \
        <span class="key"><span class="l3"></span> under 3 h</span> <span class="key"><span class="l4"></span> more</span></p>
        <div class="months" id="calendar">{{#months}}<section class="month" id="{{id}}"><h3><a href="/days?from={{from}}&amp;to={{to}}" \
        title="{{name}} on one map">{{name}}</a></h3><div class="weeks">\
        <span class="wd">M</span><span class="wd">T</span><span class="wd">W</span><span class="wd">T</span>\
        <span class="wd">F</span><span class="wd">S</span><span class="wd">S</span>\
        {{#cells}}{{#blank}}<span></span>{{/blank}}{{^blank}}<a href="/day/{{date}}" class="l{{level}}{{#today}} today{{/today}}" \
        title="{{label}}" aria-label="{{label}}">{{day}}</a>{{/blank}}{{/cells}}</div></section>{{/months}}</div>
        </body></html>
        """

    /// The year in review: what `trailbook year` prints, from the visits and trips in the points:
    /// the year in figures, distance by mode as bars, countries and cities, the places with the
    /// most time, the longest trip.
    static let year = """
        {{> head}}
        <header><h1>{{year}} in review</h1><span>signed in as <strong id="me">{{user}}</strong></span></header>
        <nav class="days"><a href="/calendar?year={{year}}">Calendar</a>\
        <a href="/year?year={{previous}}" rel="prev">← {{previous}}</a><a href="/year?year={{next}}" rel="next">{{next}} →</a></nav>
        <p id="summary" class="muted">{{summary}}</p>
        {{#empty}}<p>Nothing recorded in {{year}}: import your history (<a href="/import">Import</a>) or let a phone post.</p>{{/empty}}
        {{^empty}}<div class="cards-grid" id="figures">{{#figures}}<div class="stat"><b>{{value}}</b>\
        <span class="muted">{{label}}</span></div>{{/figures}}</div>
        <h2>By mode</h2>
        <table id="modes" class="bars-table"><thead><tr><th>Mode</th><th>Distance</th><th>Time</th><th>Trips</th></tr></thead><tbody>\
        {{#modes}}<tr style="--mode:var(--m-{{mode}})"><td class="nowrap"><svg class="i" aria-hidden="true">\
        <use href="/icons.svg#{{icon}}"/></svg> {{mode}}</td><td><span class="meter" style="width:{{share}}%"></span>{{distance}}</td>\
        <td class="nowrap">{{time}}</td><td>{{trips}}</td></tr>{{/modes}}</tbody></table>
        <h2>Away from home</h2><p id="away">{{away}}</p>
        <h2>Countries and cities</h2>
        {{#noGazetteer}}<p id="countries">Names come from a gazetteer loaded once on the server: \
        <code>trailbook geocoder import cities500.zip</code> (GeoNames).</p>{{/noGazetteer}}\
        {{^noGazetteer}}<div class="cards-grid" id="countries">{{#countries}}<div class="stat"><strong>{{name}}</strong> \
        {{days}}</div>{{/countries}}</div>
        <ul id="cities" class="columns">{{#cities}}<li>{{name}}, {{country}} · {{days}}</li>{{/cities}}</ul>{{/noGazetteer}}
        <p><a href="/heatmap?year={{year}}" id="heat">Where you were in {{year}}: the heat map</a></p>
        <h2>Places with the most time</h2>
        <ol id="places" class="ranked">{{#places}}<li><span class="meter" style="width:{{share}}%"></span><strong>{{name}}</strong> \
        {{hours}} · {{visits}}{{#locality}} · {{.}}{{/locality}}</li>{{/places}}</ol>
        {{#longest}}<h2>The longest trip</h2><p id="longest"><a href="/day/{{date}}">{{when}}</a>: {{what}}</p>{{/longest}}{{/empty}}
        </body></html>
        """

    /// The question before something is removed for good: what goes, and the form that removes it.
    static let confirm = """
        {{> head}}
        <header><h1>Delete {{what}}?</h1><span>signed in as <strong id="me">{{user}}</strong></span></header>
        <p>This removes for good{{#note}} ({{.}}){{/note}}:</p>
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
        <section><h2>Everything</h2>
        <p>All of your account in one file, to keep or to move to another server: your devices, points, rides, \
        records with their photos, day summaries, places, events, cues, tasks and alerts. Unpacked, \
        <code>trailbook store copy trailbook-…/trailbook.sqlite NEW-STORE</code> brings it back whole.</p>
        <p><a href="/export/archive" id="archive" download>Download everything (.tar)</a></p></section>
        </body></html>
        """

    /// Import: a file into the account, with the upload's progress and the import's summary.
    static let importPage = """
        {{> head}}
        <header><h1>Import</h1><span>signed in as <strong id="me">{{user}}</strong></span></header>
        <nav class="days"><a href="/">Home</a><a href="/day/{{today}}">Today’s diary</a><a href="/calendar">Calendar</a></nav>
        <p>NMEA logs (.nmea, .log, .txt), GPX, FIT and TCX (bike computers and watches), KML and KMZ, GeoJSON, CSV, \
        Trailbook's JSON tracks, OwnTracks Recorder <code>.rec</code> files, and Google's location history (a Takeout \
        zip, <code>Records.json</code>, the Semantic Location History, <code>Timeline.json</code>, \
        <code>location-history.json</code>); each also gzip-compressed, or several in a zip; at most {{limit}} MiB. The \
        points go through your collection rules, as <code>trailbook import</code> does; a file imported before is \
        skipped.</p>
        <form id="import" data-csrf="{{csrf}}"><label>File <input type="file" name="file" id="file" required></label>\
        <button id="send">Import</button></form>
        <progress id="progress" max="100" value="0" hidden></progress>
        <p id="status" role="status"></p>
        <table id="summary" hidden><tbody></tbody></table>
        <p id="days" hidden></p>
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
            for (const f of answer.files || []) {
              row(f.file.slice(chosen.name.length + 1), f.already_imported ? "imported before" : (f.stored || 0) + " stored");
            }
            if (answer.files) status.textContent = chosen.name + ": " + answer.files.length + " files imported.";
            row("Fixes read", answer.fixes_read); row("Kept", answer.kept); row("Stored", answer.stored);
            for (const [reason, n] of Object.entries(answer.dropped || {})) row("Dropped: " + reason.replace(/_/g, " "), n);
            row("Rides", answer.rides);
            if (answer.visits != null) row("Visits (Google's)", answer.visits);
            if (answer.records != null) row("Records made", answer.records);
            summary.hidden = false;
            const days = document.getElementById("days");
            days.replaceChildren();
            if ((answer.days || []).length > 0) {
              days.append("The days it filled: ");
              answer.days.forEach((d, i) => {
                const a = document.createElement("a"); a.href = "/day/" + d; a.textContent = d;
                if (i > 0) days.append(", ");
                days.appendChild(a);
              });
              days.hidden = false;
            }
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
        <div class="scroll"><table id="devices" class="cards"><thead><tr><th>Device</th><th>Added</th><th>State</th><th></th></tr></thead><tbody>
        {{#devices}}<tr><td>{{name}}</td><td>{{added}}</td><td>{{state}}</td><td>{{#live}}<form method="post" \
        action="/devices/revoke" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" \
        name="name" value="{{name}}"><button>Revoke</button></form>{{/live}}</td></tr>
        {{/devices}}</tbody></table></div>
        <form method="post" action="/devices" id="add-device"><input type="hidden" name="csrf" value="{{csrf}}">\
        <label>A new device’s name <input name="name" required maxlength="64" placeholder="phone"></label>\
        <button>Add it and pair a phone</button></form></section>
        <section><h2>Time zone and units</h2>
        <form method="post" action="/preferences" id="preferences"><input type="hidden" name="csrf" value="{{csrf}}">\
        <label>Time zone of your days and times <input name="zone" value="{{zone}}" list="zones" \
        placeholder="{{serverZone}} (the server’s)" autocomplete="off"></label><datalist id="zones">\
        {{#zones}}<option value="{{.}}">{{/zones}}</datalist>\
        <label>Units <select name="units"><option value="metric"{{#metric}} selected{{/metric}}>metric (km, m)</option>\
        <option value="imperial"{{#imperial}} selected{{/imperial}}>imperial (mi, ft)</option></select></label>\
        <button>Save</button></form>
        <p class="muted">Empty, the time zone is the server’s ({{serverZone}}).</p>
        </section>
        <section><h2>Password</h2>
        <form method="post" action="/password" id="password"><input type="hidden" name="csrf" value="{{csrf}}">\
        <label>Current password <input type="password" name="current" autocomplete="current-password" required></label>\
        <label>New password (at least {{minimum}} characters) <input type="password" name="new" \
        autocomplete="new-password" minlength="{{minimum}}" required></label><label>The new password again \
        <input type="password" name="again" autocomplete="new-password" required></label><button>Change it</button></form>
        <p class="muted">Changing it signs out every other browser signed in to this account.</p>
        </section>
        <section><h2>Sessions</h2>
        <form method="post" action="/sessions/end" id="endsessions"><input type="hidden" name="csrf" value="{{csrf}}">\
        <p>Signed in on a computer you no longer use, or lost a phone? This signs this account out everywhere, this \
        browser too.</p><button>Sign out of every session</button></form>
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
        viewBox="0 0 {{side}} {{side}}" width="220" height="220" class="qr" role="img" aria-label="{{label}}" shape-rendering="crispEdges">\
        <rect width="{{side}}" height="{{side}}" fill="#fff"/><path d="{{path}}" fill="#000"/></svg>{{/qr}}</div>\
        <p class="url"><code>{{text}}</code></p></section>
        {{/apps}}
        </body></html>
        """

    /// Places: the map of the account's places (tap to put a new one, drag its edge to size it),
    /// the form, and each place with its arrivals and departures, renamed or deleted.
    static let places = """
        {{> head}}
        <header><h1>Places</h1><span>signed in as <strong id="me">{{user}}</strong></span></header>
        <nav class="days"><a href="/">Home</a><a href="/day/{{today}}">Today’s diary</a><a href="/alerts">Alerts</a></nav>
        {{#message}}<p class="message" id="message" role="status">{{.}}</p>{{/message}}
        <p class="muted">Your phones tell you (and the friends you let) when they arrive at and leave these places.</p>
        <div class="mapwrap"><svg id="map" role="img" tabindex="0" aria-label="Your places (tap to put a new place; drag \
        its edge to size it; drag to pan; wheel, pinch, + and − to zoom)"{{#tiles}} data-tiles="/tiles/"{{/tiles}} \
        data-places="{{placesJSON}}"{{#here}} data-here="{{.}}"{{/here}}></svg>\
        <div class="mapctl"><button type="button" data-map="in" aria-label="Zoom in">+</button>\
        <button type="button" data-map="out" aria-label="Zoom out">−</button>\
        <button type="button" data-map="fit" aria-label="Fit to your places">⤢</button></div></div>
        {{#attribution}}<div class="attribution">{{.}}</div>{{/attribution}}
        <section><h2>A new place</h2>
        <form method="post" action="/places" id="newplace"><input type="hidden" name="csrf" value="{{csrf}}">\
        <p>Tap the map where it is, then drag the handle on its edge to size it (or type them).</p>\
        {{#formMessage}}<p class="message" id="placemessage" role="alert">{{.}}</p>{{/formMessage}}\
        <div class="fields"><label>Name <input name="name" required maxlength="64" value="{{name}}" placeholder="home"></label>\
        <label>Latitude <input name="lat" inputmode="decimal" required value="{{lat}}"></label>\
        <label>Longitude <input name="lon" inputmode="decimal" required value="{{lon}}"></label>\
        <label>Radius, m <input name="radius" type="number" min="1" max="100000" step="1" required value="{{radius}}"></label>\
        <button>Add the place</button></div></form></section>
        <section><h2>Your places</h2>
        {{^hasPlaces}}<p id="noplaces">None yet.</p>{{/hasPlaces}}
        {{#hasPlaces}}<div class="scroll"><table id="places" class="cards"><thead><tr><th>Place</th><th>Where</th><th>Arrivals and departures \
        (the last year)</th><th></th></tr></thead><tbody>
        {{#places}}<tr data-name="{{name}}"><td><strong>{{name}}</strong></td><td>{{where}}<br><span class="muted">{{size}}</span></td>\
        <td>{{^events}}<span class="muted">no arrivals or departures yet</span>{{/events}}<ul class="events">{{#events}}<li>{{.}}</li>{{/events}}</ul></td><td>\
        <form method="post" action="/places/rename" class="rename"><input type="hidden" name="csrf" value="{{csrf}}">\
        <input type="hidden" name="name" value="{{name}}"><input name="new" value="{{name}}" size="10" maxlength="64" \
        aria-label="A new name for {{name}}" required> <button>Rename</button></form> \
        <a href="/places/delete?name={{query}}" class="delete">Delete…</a></td></tr>
        {{/places}}</tbody></table></div>{{/hasPlaces}}
        </section>
        <section><h2 id="found">Places your visits found</h2>
        <p class="muted">Where you stayed, numbered as they were first found; a name you give one shows in every \
        listing of your visits (the day pages, <code>trailbook visits</code>).</p>
        {{^hasFound}}<p id="nofound">None yet: they are found when a day of yours is looked at.</p>{{/hasFound}}
        {{#hasFound}}<div class="scroll"><table id="foundplaces" class="cards"><thead><tr><th>Place</th><th>Where</th>\
        <th>Your name for it</th></tr></thead><tbody>
        {{#found}}<tr data-id="{{id}}"><td><strong>{{label}}</strong>{{#suggestion}} <span class="muted">({{.}}, \
        suggested)</span>{{/suggestion}}</td>\
        <td>{{#locality}}{{.}}<br>{{/locality}}{{#address}}{{.}}<br>{{/address}}<span class="muted">{{where}}</span>\
        <br><a href="/places/found/{{id}}">Its visits</a></td>\
        <td><form method="post" action="/places/found" class="rename"><input type="hidden" name="csrf" value="{{csrf}}">\
        <input type="hidden" name="id" value="{{id}}"><input name="name" value="{{name}}" size="10" maxlength="64" \
        aria-label="A name for place {{id}}" placeholder="a name"> <button>Keep</button></form></td></tr>
        {{/found}}</tbody></table></div>{{/hasFound}}
        </section>
        <script src="/map.js"></script><script src="/places.js"></script>
        </body></html>
        """

    /// A found place's history: each visit with its day (a link to the day), hours and length.
    static let placeHistory = """
        {{> head}}
        <header><h1>{{name}}</h1><span>signed in as <strong id="me">{{user}}</strong></span></header>
        <nav class="days"><a href="/places#found">Places</a><a href="/day/{{today}}">Today’s diary</a></nav>
        <p id="summary">{{summary}}</p>
        {{#hasVisits}}<div class="scroll"><table id="visits" class="cards"><thead><tr><th>Day</th><th>Hours</th>\
        <th>Length</th></tr></thead><tbody>
        {{#visits}}<tr><td><a href="/day/{{day}}">{{day}}</a></td><td>{{hours}}</td><td>{{length}}</td></tr>
        {{/visits}}</tbody></table></div>{{/hasVisits}}
        </body></html>
        """

    /// Alerts: the account's alerts with "send a test" and their deliveries, and the form.
    static let alerts = """
        {{> head}}
        <header><h1>Alerts</h1><span>signed in as <strong id="me">{{user}}</strong></span></header>
        <nav class="days"><a href="/">Home</a><a href="/day/{{today}}">Today’s diary</a><a href="/places">Places</a></nav>
        {{#message}}<p class="message" id="message" role="status">{{.}}</p>{{/message}}
        <p class="muted">An alert sends the events you choose to a channel of yours while the server runs; one that \
        does not get through is tried again.</p>
        <section><h2>Your alerts</h2>
        {{^hasAlerts}}<p id="noalerts">None yet.</p>{{/hasAlerts}}
        {{#hasAlerts}}<div class="scroll"><table id="alerts" class="cards"><thead><tr><th>Alert</th><th>Sends</th><th>To</th>\
        <th>Deliveries</th><th></th></tr></thead><tbody>
        {{#alerts}}<tr data-id="{{id}}"><td>{{id}}</td><td>{{events}}{{#rules}}<br><span class="muted">{{.}}</span>{{/rules}}</td>\
        <td class="target">{{channel}}</td><td>{{counts}}</td><td><form method="post" action="/alerts/{{id}}/test" \
        class="inline test"><input type="hidden" name="csrf" value="{{csrf}}"><button>Send a test</button></form> \
        <a href="/alerts/{{id}}/delete" class="delete">Delete…</a></td></tr>
        {{/alerts}}</tbody></table></div>{{/hasAlerts}}
        </section>
        <section><h2>A new alert</h2>
        <form method="post" action="/alerts" id="newalert"><input type="hidden" name="csrf" value="{{csrf}}">\
        {{#formMessage}}<p class="message" id="alertmessage" role="alert">{{.}}</p>{{/formMessage}}\
        <fieldset><legend>When</legend><div class="checks">{{#types}}<label><input type="checkbox" name="on-{{value}}"\
        {{#checked}} checked{{/checked}}> {{label}}</label>{{/types}}</div></fieldset>\
        <div class="fields"><label>Only at <select name="place"><option value="">any place</option>{{#places}}\
        <option{{#selected}} selected{{/selected}}>{{name}}</option>{{/places}}</select></label>\
        <label>Only of <select name="device"><option value="">any device</option>{{#devices}}\
        <option{{#selected}} selected{{/selected}}>{{name}}</option>{{/devices}}</select></label>\
        <label>Quiet hours <input name="quiet" value="{{quiet}}" placeholder="22:00-07:00" size="11"></label>\
        <label>Cooldown, s <input name="cooldown" type="number" min="0" step="1" value="{{cooldown}}"></label></div>\
        <div class="fields"><label>Send to <select name="channel">{{#channels}}<option value="{{value}}"\
        {{#selected}} selected{{/selected}}>{{label}}</option>{{/channels}}</select></label>\
        <label class="wide">Its address <input name="address" value="{{address}}" required \
        placeholder="https://example.org/hook, https://ntfy.sh/topic or mqtt://host:1883/topic"></label>\
        <label>Webhook secret <input name="secret" value="{{secret}}" autocomplete="off" placeholder="optional"></label>\
        <button>Add the alert</button></div></form></section>
        <section><h2>Deliveries</h2>
        {{^hasLog}}<p class="muted">None yet.</p>{{/hasLog}}
        {{#hasLog}}<div class="scroll"><table id="deliveries"><thead><tr><th>When</th><th>Alert</th><th>Message</th>\
        <th>State</th></tr></thead><tbody>{{#log}}<tr><td>{{when}}</td><td>{{alert}}</td><td>{{title}}</td><td>{{state}}</td></tr>
        {{/log}}</tbody></table></div>{{/hasLog}}
        </section>
        </body></html>
        """

    /// The live map and its table of devices (the reader's own rows first, then friends'), which
    /// `/live.js` keeps up to date: the home page's and the friends page's.
    static let livemap = """
        {{> livemap-map}}
        {{> livemap-table}}
        """

    /// The live map and its credit.
    static let livemapMap = """
        <div class="mapwrap"><svg id="map" role="img" tabindex="0" aria-label="{{mapLabel}} \
        (drag to pan; wheel, pinch, + and − to zoom; 0 to fit and follow)"{{#tiles}} data-tiles="/tiles/"{{/tiles}} \
        data-track="{{track}}" data-shared="{{shared}}"></svg>\
        <div class="mapctl"><button type="button" data-map="in" aria-label="Zoom in">+</button>\
        <button type="button" data-map="out" aria-label="Zoom out">−</button>\
        <button type="button" data-map="fit" aria-label="Fit to your friends and follow them">⤢</button></div>\
        <div id="maptip" class="maptip" role="status"></div></div>
        {{#attribution}}<div class="attribution">{{.}}</div>{{/attribution}}
        """

    /// Who is where: your devices and your friends', kept up to date by the page's script.
    static let livemapTable = """
        <div class="scroll"><table id="friends" data-moving-within="{{movingWithin}}" data-offline-after="{{offlineAfter}}"><thead><tr><th>Who</th><th>Device</th><th>Last seen</th><th>Motion</th><th>Speed</th><th>Heading</th></tr></thead>
        <tbody>
        {{#own}}<tr class="self" data-user="{{user}}" data-device="{{device}}" data-lat="{{lat}}" data-lon="{{lon}}" \
        data-time="{{time}}" data-motion=""><td>you</td><td>{{device}}{{#kind}} <span class="muted">({{.}})</span>{{/kind}}</td>\
        <td>{{seen}}</td><td></td><td>{{speed}}</td>\
        <td>{{course}}</td></tr>
        {{/own}}{{#friends}}<tr data-user="{{user}}" data-device="{{device}}" data-lat="{{lat}}" data-lon="{{lon}}" data-time="{{time}}" \
        data-motion="{{motion}}"{{#offline}} class="offline"{{/offline}}>
        <td>{{user}}</td><td>{{device}}</td><td>{{seen}}</td><td>{{moving}}</td><td>{{speed}}</td><td>{{course}}</td></tr>
        {{/friends}}
        </tbody></table></div>
        """

    /// Friends: who lets you see them, what each shares, their devices live on the map and their
    /// shared tracks (each device named).
    static let friends = """
        {{> head}}
        <header><h1>Friends</h1><span>signed in as <strong id="me">{{user}}</strong></span></header>
        <nav class="days"><a href="/">Home</a><a href="/day/{{today}}">Today’s diary</a><a href="/places">Places</a>\
        <a href="/#share">Share where you are</a></nav>
        <p class="muted" id="sharednote">{{sharedNote}}</p>
        {{> livemap}}
        {{^hasFriends}}<p id="nobody">Nobody shares with you yet: ask a friend for a code and enter it on the \
        <a href="/#share">home page</a>.</p>{{/hasFriends}}
        <section><h2>What each friend shares with you</h2>
        {{^hasGrants}}<p>Nobody.</p>{{/hasGrants}}
        {{#hasGrants}}<div class="scroll"><table id="shares" class="cards"><thead><tr><th>Friend</th><th>Shares</th>\
        <th>Until</th><th>Devices</th></tr></thead><tbody>{{#grants}}<tr data-user="{{owner}}"><td><strong>{{owner}}</strong></td>\
        <td>{{scopes}}</td><td>{{until}}</td><td>{{devices}}</td></tr>
        {{/grants}}</tbody></table></div>{{/hasGrants}}
        </section>
        <script src="/map.js"></script><script src="/live.js"></script>
        </body></html>
        """

    /// The heat map of all time.
    static let heatmap = """
        {{> head}}
        <header><h1>{{#year}}Where you were in {{.}}{{/year}}{{^year}}Everywhere you have been{{/year}}</h1>\
        <span>signed in as <strong id="me">{{user}}</strong></span></header>
        <nav class="days"><a href="/">Home</a><a href="/day/{{today}}">Today’s diary</a><a href="/calendar">Calendar</a>\
        {{#year}}<a href="/year?year={{.}}">{{.}} in review</a><a href="/heatmap">All time</a>{{/year}}</nav>
        <p class="muted" id="heatnote">{{note}}</p>
        <div class="mapwrap"><svg id="map" class="tall" role="img" tabindex="0" aria-label="A heat map of all your points \
        (drag to pan; wheel, pinch, + and − to zoom; 0 to fit)"{{#tiles}} data-tiles="/tiles/"{{/tiles}} data-heat="{{heat}}"></svg>\
        <div class="mapctl"><button type="button" data-map="in" aria-label="Zoom in">+</button>\
        <button type="button" data-map="out" aria-label="Zoom out">−</button>\
        <button type="button" data-map="fit" aria-label="Fit to everything">⤢</button></div></div>
        {{#attribution}}<div class="attribution">{{.}}</div>{{/attribution}}
        <script src="/map.js"></script><script src="/heatmap.js"></script>
        </body></html>
        """
}
