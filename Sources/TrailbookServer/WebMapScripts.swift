/// The served pages' live maps, each page's script after `/map.js`, the map itself: Web
/// Mercator in an SVG (world units 0 to 1 across, as tiles are cut), the zoom's tiles from this
/// server (never a tile server), panned by dragging and zoomed with the wheel, a pinch, the + and
/// − buttons or keys (arrows pan, 0 fits). It fits what the page shows and follows it until the
/// reader pans or zooms; ⤢ or 0 fits and follows again. A page gives what to fit (`extent`), what
/// to draw over the tiles (`paint`), and what a pointer does: `hover`, `tap` (a press without a
/// drag), `grab` (a press on something the page drags itself, such as a place's radius).
/// Text goes in with textContent, never as HTML.
enum WebMapScripts {
    static let map = """
        "use strict";
        // A page whose panel is a sheet on a phone: the grip opens and closes it.
        addEventListener("DOMContentLoaded", () => {
          const grip = document.getElementById("grip"), panel = document.getElementById("panel");
          if (grip && panel) grip.addEventListener("click", () =>
            grip.setAttribute("aria-expanded", String(panel.classList.toggle("open"))));
        });
        const ns = "http://www.w3.org/2000/svg";
        function mx(lon) { return (lon + 180) / 360; }
        function my(lat) { const r = lat * Math.PI / 180; return (1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2; }
        function lonOf(x) { return x * 360 - 180; }
        function latOf(y) { return Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180 / Math.PI; }
        // Metres on the ground per world unit at world row y (the equator is 40,075,016.686 m).
        function metresPerUnit(y) { return 40075016.686 * Math.cos(latOf(y) * Math.PI / 180); }
        function element(name, attributes) {
          const node = document.createElementNS(ns, name);
          for (const k in attributes) node.setAttribute(k, attributes[k]);
          return node;
        }
        // A line through world points, in the frame of X and Y.
        function polyline(points, X, Y, attributes) {
          const d = points.map((p, i) => (i ? "L" : "M") + X(p.x).toFixed(1) + " " + Y(p.y).toFixed(1)).join("");
          return element("path", Object.assign({ d, fill: "none", "stroke-linejoin": "round", "stroke-linecap": "round" }, attributes));
        }
        function slippyMap(svg, o) {
          // Pixels per world unit: zoom 0's and zoom 19's.
          const MIN = 256, MAX = 256 * 524288;
          const map = { view: null, follow: true };
          function size() { return { W: svg.clientWidth || 1, H: svg.clientHeight || 1 }; }
          // The view that shows every point, with a margin; at most zoom 17's, so one point is not a blur.
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
            if (map.follow || !map.view) { const all = o.extent(); map.view = all.length ? fitted(all) : (o.empty || null); }
            svg.dataset.follow = map.follow;
            if (!map.view) return;
            const { cx, cy, scale } = map.view;
            const X = x => W / 2 + (x - cx) * scale, Y = y => H / 2 + (y - cy) * scale;
            // The tiles of the zoom drawn at most 256 px.
            const z = Math.max(0, Math.min(19, Math.ceil(Math.log2(scale / 256) - 1e-9))), n = 1 << z, s = scale / n;
            svg.dataset.zoom = z;
            if (svg.dataset.tiles) {
              const c0 = Math.max(0, Math.floor((cx - W / 2 / scale) * n)), c1 = Math.min(n - 1, Math.floor((cx + W / 2 / scale) * n));
              const r0 = Math.max(0, Math.floor((cy - H / 2 / scale) * n)), r1 = Math.min(n - 1, Math.floor((cy + H / 2 / scale) * n));
              for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) {
                svg.appendChild(element("image", {
                  href: svg.dataset.tiles + z + "/" + c + "/" + r, x: X(c / n) - 0.25, y: Y(r / n) - 0.25,
                  width: s + 0.5, height: s + 0.5, class: "tile" }));
              }
            }
            o.paint(X, Y, W, H, scale);
          }
          function local(cx, cy) { const b = svg.getBoundingClientRect(); return { px: cx - b.left, py: cy - b.top }; }
          function world(px, py) {
            const { W, H } = size();
            return { x: map.view.cx + (px - W / 2) / map.view.scale, y: map.view.cy + (py - H / 2) / map.view.scale };
          }
          function zoom(f, clientX, clientY) {
            if (!map.view) return;
            const { W, H } = size();
            const { px, py } = clientX === undefined ? { px: W / 2, py: H / 2 } : local(clientX, clientY);
            const w = world(px, py), scale = Math.max(MIN, Math.min(MAX, map.view.scale * f));
            map.view = { cx: w.x - (px - W / 2) / scale, cy: w.y - (py - H / 2) / scale, scale };
            map.follow = false; draw();
          }
          function pan(dx, dy) {
            if (!map.view) return;
            map.view.cx = Math.max(0, Math.min(1, map.view.cx + dx / map.view.scale));
            map.view.cy = Math.max(0, Math.min(1, map.view.cy + dy / map.view.scale));
            map.follow = false; draw();
          }
          function fit() { map.follow = true; draw(); }
          svg.addEventListener("wheel", e => { e.preventDefault(); zoom(e.deltaY < 0 ? 1.25 : 0.8, e.clientX, e.clientY); }, { passive: false });
          const down = new Map();
          let moved = false, pinch = 0, grabbed = null;
          svg.addEventListener("pointerdown", e => {
            if (o.grab && map.view && down.size === 0) {
              const { px, py } = local(e.clientX, e.clientY);
              grabbed = o.grab(px, py);
              if (grabbed) {
                grabbed.id = e.pointerId; e.preventDefault();
                if (svg.setPointerCapture) svg.setPointerCapture(e.pointerId);
                return;
              }
            }
            down.set(e.pointerId, { x: e.clientX, y: e.clientY }); moved = false;
            if (down.size === 2) { const [a, b] = [...down.values()]; pinch = Math.hypot(a.x - b.x, a.y - b.y); }
          });
          svg.addEventListener("pointermove", e => {
            if (grabbed) {
              if (e.pointerId === grabbed.id) { const { px, py } = local(e.clientX, e.clientY); grabbed.move(world(px, py)); }
              return;
            }
            const d = down.get(e.pointerId);
            if (!d) { if (o.hover) { const { px, py } = local(e.clientX, e.clientY); o.hover(px, py); } return; }
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
          function up(e) {
            if (grabbed && e.pointerId === grabbed.id) { grabbed = null; return; }
            const d = down.get(e.pointerId); down.delete(e.pointerId); pinch = 0;
            if (d && !moved && o.tap && map.view) { const { px, py } = local(e.clientX, e.clientY); o.tap(px, py, world(px, py)); }
          }
          svg.addEventListener("pointerup", up); svg.addEventListener("pointercancel", up);
          svg.addEventListener("pointerleave", () => { if (o.leave) o.leave(); });
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
          map.draw = draw; map.world = world;
          return map;
        }

        """

    /// The home page's: the reader's devices and track today, friends' positions and shared
    /// tracks; rows and map kept up to date from `/api/live`. Every 5 s it writes each friend's
    /// real age ("12 s ago", "5 min ago"), "silent since HH:MM" (with the day when not today) instead of the motion once the
    /// newest fix is older than `events.moving_within`, and greys a friend silent for longer than
    /// `events.offline_after`. Pointing at a dot (or tapping it) shows who, which device, when,
    /// motion and speed.
    static let live = """
        "use strict";
        const svg = document.getElementById("map");
        const body = document.querySelector("#friends tbody");
        const tip = document.getElementById("maptip");
        let dots = [];
        function key(u, d) { return u + "\\u0000" + d; }
        function rows() { return Array.from(body.querySelectorAll("tr")); }
        function friends() {
          return rows().filter(r => r.dataset.lat !== undefined && r.dataset.lat !== "").map(r => ({
            x: mx(+r.dataset.lon), y: my(+r.dataset.lat), row: r }));
        }
        // The reader's own track today: lines of [lon, lat], in world units.
        const track = JSON.parse(svg.dataset.track || "[]").map(l => l.map(p => ({ x: mx(p[0]), y: my(p[1]) })));
        // Friends' shared history (those whose grant lets the reader see it): lines per friend.
        const shared = JSON.parse(svg.dataset.shared || "[]").map(f => ({
          user: f.user, devices: f.devices || [], lines: f.lines.map(l => l.map(p => ({ x: mx(p[0]), y: my(p[1]) }))) }));
        function paint(X, Y, W) {
          const dotted = new Set(friends().map(p => key(p.row.dataset.user, p.row.dataset.device)));
          for (const f of shared) f.lines.forEach((l, i) => {
            if (l.length > 1) svg.appendChild(polyline(l, X, Y, { class: "shared", stroke: "#1f6feb", "stroke-width": 2, "data-user": f.user }));
            // Each device's track is named where it ends (its newest point), unless its dot is named there.
            const device = f.devices[i];
            if (device === undefined || f.devices[i + 1] === device || !l.length || dotted.has(key(f.user, device))) return;
            const end = l[l.length - 1], label = element("text", { x: X(end.x) + 6, y: Y(end.y) - 6, "font-size": 12, class: "sharedname" });
            label.textContent = f.user + " \\u00b7 " + device;
            svg.appendChild(label);
          });
          for (const l of track) if (l.length > 1) svg.appendChild(polyline(l, X, Y, { class: "track", stroke: "#d62728", "stroke-width": 3 }));
          dots = [];
          // Names of dots close together (two devices of one person at home) stack, not overlap.
          const placed = [];
          for (const p of friends()) {
            const x = X(p.x);
            let y = Y(p.y);
            const dotY = y;
            while (placed.some(q => Math.abs(q.x - x) < 120 && Math.abs(q.y - y) < 16)) y += 17;
            placed.push({ x, y });
            const grey = p.row.classList.contains("offline"), self = p.row.classList.contains("self");
            const dot = element("circle", { cx: x, cy: dotY, r: 7, fill: self ? "#d62728" : grey ? "#9a9a9a" : "#1f6feb",
              stroke: "#fff", "stroke-width": 2, class: self ? "self" : grey ? "friend offline" : "friend" });
            const label = element("text", { x: x + 10, y: y + 5, "font-size": 14 });
            label.textContent = (self ? "you" : p.row.dataset.user) + " \\u00b7 " + p.row.dataset.device;
            // Near the right edge the name goes on the dot's left, so it is not cut off.
            if (x > W * 0.6) { label.setAttribute("x", x - 10); label.setAttribute("text-anchor", "end"); }
            svg.appendChild(dot); svg.appendChild(label);
            dots.push({ x, y: dotY, row: p.row });
          }
        }
        function when(t) {
          const d = new Date(t);
          if (isNaN(d)) return "";
          const two = v => (v < 10 ? "0" : "") + v, clock = two(d.getHours()) + ":" + two(d.getMinutes());
          // A moment of another day says which: "Tue 17 Nov 17:50".
          if (d.toDateString() === new Date().toDateString()) return clock;
          return d.toLocaleDateString("en-GB", { weekday: "short", day: "numeric", month: "short" }).replace(",", "")
            + " " + clock;
        }
        function hover(px, py) {
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
        const map = slippyMap(svg, {
          extent: () => friends().concat(...track, ...shared.flatMap(f => f.lines)),
          paint, hover, tap: hover, leave: () => { tip.style.display = "none"; } });
        const draw = map.draw;
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

    /// The places page's: the account's places (circles, or polygons) with their names; a tap
    /// puts a new place there (the form below the map takes its latitude and longitude) and
    /// dragging the handle on its edge sets its radius, or the form's fields move it. Each part
    /// of it can be typed instead (keyboard).
    static let places = """
        "use strict";
        const svg = document.getElementById("map"), form = document.getElementById("newplace");
        const places = JSON.parse(svg.dataset.places || "[]").map(p => ({ name: p.name, x: mx(p.lon), y: my(p.lat), radius: p.radius,
          ring: p.ring ? p.ring.map(c => ({ x: mx(c[0]), y: my(c[1]) })) : null }));
        const here = svg.dataset.here ? JSON.parse(svg.dataset.here) : null;
        let pick = null, handle = null;
        function read() {
          const lat = parseFloat(form.elements.lat.value), lon = parseFloat(form.elements.lon.value), r = parseFloat(form.elements.radius.value);
          pick = isFinite(lat) && isFinite(lon) && Math.abs(lat) <= 85 && Math.abs(lon) <= 180
            ? { x: mx(lon), y: my(lat), radius: isFinite(r) && r > 0 ? r : 100 } : null;
        }
        function write() {
          form.elements.lat.value = latOf(pick.y).toFixed(6); form.elements.lon.value = lonOf(pick.x).toFixed(6);
          form.elements.radius.value = Math.round(pick.radius);
        }
        function paint(X, Y, W, H, scale) {
          for (const p of places) {
            const shape = p.ring
              ? polyline(p.ring.concat([p.ring[0]]), X, Y, { class: "place" })
              : element("circle", { cx: X(p.x), cy: Y(p.y), r: Math.max(3, p.radius / metresPerUnit(p.y) * scale), class: "place" });
            shape.dataset.name = p.name;
            const label = element("text", { x: X(p.x), y: Y(p.y) + 5, "text-anchor": "middle", "font-size": 14, class: "placename" });
            label.textContent = p.name;
            svg.appendChild(shape); svg.appendChild(label);
          }
          handle = null;
          if (!pick) return;
          const r = pick.radius / metresPerUnit(pick.y) * scale, cx = X(pick.x), cy = Y(pick.y);
          svg.appendChild(element("circle", { cx, cy, r: Math.max(3, r), class: "pick", id: "pick" }));
          svg.appendChild(element("circle", { cx, cy, r: 3, class: "pickcentre" }));
          handle = { x: cx + Math.max(3, r), y: cy };
          svg.appendChild(element("circle", { cx: handle.x, cy: handle.y, r: 9, class: "handle", id: "handle" }));
        }
        read();
        // A place the form brought back (it was refused) is where the map opens when there is no other.
        const start = pick && { x: pick.x, y: pick.y };
        const map = slippyMap(svg, {
          extent() {
            const points = [];
            for (const p of places) {
              const d = p.radius / metresPerUnit(p.y);
              points.push({ x: p.x - d, y: p.y - d }, { x: p.x + d, y: p.y + d });
              if (p.ring) points.push(...p.ring);
            }
            if (!points.length && start) points.push(start);
            if (!points.length && here) points.push({ x: mx(here[0]), y: my(here[1]) });
            return points;
          },
          empty: { cx: 0.5, cy: 0.5, scale: 512 }, paint,
          tap(px, py, w) {
            pick = { x: w.x, y: w.y, radius: pick ? pick.radius : (parseFloat(form.elements.radius.value) || 100) };
            write(); map.draw(); form.elements.name.focus({ preventScroll: true });
          },
          grab(px, py) {
            if (!handle || (handle.x - px) ** 2 + (handle.y - py) ** 2 > 14 * 14) return null;
            return { move(w) {
              const m = metresPerUnit(pick.y);
              pick.radius = Math.max(1, Math.min(100000, Math.hypot(w.x - pick.x, w.y - pick.y) * m));
              write(); map.draw();
            } };
          } });
        for (const field of ["lat", "lon", "radius"]) form.elements[field].addEventListener("input", () => { read(); map.draw(); });
        map.draw();
        """

    /// The heat map's: the store's cells as five paths, one per shade (log scale), redrawn at
    /// each pan and zoom.
    static let heatmap = """
        "use strict";
        const svg = document.getElementById("map");
        const heat = JSON.parse(svg.dataset.heat || '{"size":1,"cells":[]}'), size = heat.size;
        const most = heat.cells.reduce((m, c) => Math.max(m, c[2]), 1);
        const shades = ["#fdd49e", "#fdbb84", "#fc8d59", "#e34a33", "#b30000"];
        const cells = heat.cells.map(c => ({
          x0: mx(c[1] * size - 180), x1: mx((c[1] + 1) * size - 180), y0: my((c[0] + 1) * size - 90), y1: my(c[0] * size - 90),
          shade: Math.min(4, Math.floor(5 * Math.log(c[2]) / Math.log(most + 1))) }));
        function paint(X, Y) {
          const d = ["", "", "", "", ""];
          for (const c of cells) {
            const x = X(c.x0), y = Y(c.y0), w = Math.max(1.5, X(c.x1) - x), h = Math.max(1.5, Y(c.y1) - y);
            d[c.shade] += "M" + x.toFixed(1) + " " + y.toFixed(1) + "h" + w.toFixed(1) + "v" + h.toFixed(1) + "h" + (-w).toFixed(1) + "z";
          }
          d.forEach((path, i) => { if (path) svg.appendChild(element("path", { d: path, fill: shades[i], "fill-opacity": 0.8, class: "heat" })); });
        }
        const map = slippyMap(svg, {
          extent: () => cells.flatMap(c => [{ x: c.x0, y: c.y0 }, { x: c.x1, y: c.y1 }]), paint,
          empty: { cx: 0.5, cy: 0.5, scale: 512 } });
        map.draw();
        """
}
