/// The web app's one visual system: design tokens (type scale, spacing, radii, light and dark
/// colours, a mode palette that stays apart for colour-blind readers), the components built on
/// them (bar, buttons, inputs, tables, cards, the map-first layout with its panel or sheet), and
/// the icons, one SVG sprite. `trailbook serve` links it as `/app.css` and `/icons.svg` from
/// every page, the day page included; a report file keeps its own inline style (it loads nothing).
public enum AppStyle {
    /// Light colours; ``dark`` the same names for a dark screen.
    static let light = """
        --bg:#f4f5f7;--surface:#ffffff;--surface-2:#eceff3;--text:#1b1f24;--muted:#5d6670;--line:#dde1e6;\
        --accent:#0a63c2;--accent-ink:#ffffff;--accent-soft:#e2edfb;--danger:#b42318;--note:#fff4c2;\
        --map:#e9edf1;--focus:#0a63c2;--shadow:0 1px 2px rgba(16,24,40,.06),0 4px 14px rgba(16,24,40,.10);--tile-filter:none;
        """
    static let dark = """
        --bg:#15181c;--surface:#1e232a;--surface-2:#262c34;--text:#e6e8eb;--muted:#9aa4af;--line:#343b45;\
        --accent:#6aa8f7;--accent-ink:#0b1320;--accent-soft:#1f3552;--danger:#f07167;--note:#4a4020;\
        --map:#232830;--focus:#8ab4f8;--shadow:0 1px 2px rgba(0,0,0,.4),0 4px 14px rgba(0,0,0,.45);\
        --tile-filter:invert(1) hue-rotate(180deg) brightness(.85) contrast(.9);
        """

    /// The stylesheet.
    public static let css = """
        :root{--font:"Inter","Segoe UI",system-ui,-apple-system,Roboto,"Helvetica Neue",Arial,sans-serif;\
        --mono:ui-monospace,"SF Mono",Menlo,Consolas,monospace;\
        --t-xs:.75rem;--t-s:.8125rem;--t-m:.9375rem;--t-l:1.125rem;--t-xl:1.5rem;--t-2xl:2rem;\
        --s-1:4px;--s-2:8px;--s-3:12px;--s-4:16px;--s-5:24px;--s-6:32px;--r-s:6px;--r-m:10px;--r-l:16px;--bar:52px;--panel:400px;\
        --m-walking:#009e73;--m-running:#cc79a7;--m-cycling:#0072b2;--m-car:#d55e00;--m-train:#e69f00;\
        --m-plane:#7a5cc2;--m-still:#6b7280;--m-stay:#6b7280;--m-record:#b3261e;\(light)}
        @media (prefers-color-scheme:dark){:root{\(dark)}}
        body.light{\(light)}body.dark{\(dark)}
        *,*::before,*::after{box-sizing:border-box}
        html{-webkit-text-size-adjust:100%}
        body{margin:0;font:var(--t-m)/1.5 var(--font);background:var(--bg);color:var(--text);font-variant-numeric:tabular-nums}
        body>*:not(.bar):not(.mapfirst):not(script){max-width:1080px;margin-left:auto;margin-right:auto;padding-left:var(--s-4);padding-right:var(--s-4)}
        body>table{width:calc(100% - 2*var(--s-4));max-width:calc(1080px - 2*var(--s-4))}
        h1{font-size:var(--t-xl);line-height:1.2;margin:var(--s-5) 0 var(--s-2);letter-spacing:-.01em}
        h2{font-size:var(--t-l);margin:var(--s-5) 0 var(--s-2)}h3{font-size:var(--t-m);margin:var(--s-4) 0 var(--s-1)}
        a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
        :focus-visible{outline:2px solid var(--focus);outline-offset:2px}
        .muted{color:var(--muted)}.nowrap{white-space:nowrap}[hidden]{display:none!important}
        svg.i{width:1.25em;height:1.25em;vertical-align:-.25em;fill:none;stroke:currentColor;stroke-width:2;\
        stroke-linecap:round;stroke-linejoin:round;flex:none}
        /* the bar */
        .bar{position:sticky;top:0;z-index:20;display:flex;align-items:center;gap:var(--s-3);height:var(--bar);\
        padding:0 var(--s-4);background:var(--surface);border-bottom:1px solid var(--line)}
        .brand{display:flex;align-items:center;gap:var(--s-2);font-weight:700;color:var(--text);font-size:var(--t-l);white-space:nowrap}
        .brand svg{width:28px;height:28px}.brand:hover{text-decoration:none}
        .tabs{display:flex;gap:2px;overflow-x:auto;scrollbar-width:none;flex:1;min-width:0}.tabs::-webkit-scrollbar{display:none}
        .tabs a{display:flex;align-items:center;gap:6px;padding:6px 10px;border-radius:var(--r-s);color:var(--muted);\
        font-weight:600;font-size:var(--t-s);white-space:nowrap}
        .tabs a:hover{background:var(--surface-2);color:var(--text);text-decoration:none}
        .tabs a[aria-current=page]{background:var(--accent-soft);color:var(--accent)}
        @media (max-width:720px){.brand span{display:none}.tabs a span{display:none}.tabs a{padding:8px}}
        @media (max-width:480px){.bar{padding:0 8px;gap:6px}.tabs{gap:0}.tabs a{padding:5px}.tabs svg.i{width:18px;height:18px}}
        /* controls */
        button,.button,input,select,textarea{font:inherit;color:inherit}
        button,.button{display:inline-flex;align-items:center;justify-content:center;gap:6px;min-height:36px;padding:6px 14px;\
        border-radius:var(--r-s);border:1px solid var(--accent);background:var(--accent);color:var(--accent-ink);\
        font-weight:600;cursor:pointer;text-decoration:none;line-height:1.2}
        button:hover,.button:hover{filter:brightness(1.08);text-decoration:none}
        button.quiet,.button.quiet,.mapctl button,nav.days button{background:var(--surface);color:var(--text);border-color:var(--line)}
        button.danger{background:var(--danger);border-color:var(--danger);color:#fff}
        input:not([type=checkbox]):not([type=radio]):not([type=file]),select,textarea{min-height:36px;padding:6px 10px;\
        border:1px solid var(--line);border-radius:var(--r-s);background:var(--surface);max-width:100%}
        input[type=file]::file-selector-button{font:inherit;font-weight:600;border:1px solid var(--line);\
        border-radius:var(--r-s);background:var(--surface);color:var(--text);padding:6px 12px;margin-right:8px;cursor:pointer}
        input[type=checkbox],input[type=radio]{accent-color:var(--accent);width:1.05em;height:1.05em;vertical-align:-.15em}
        label{display:block;margin:var(--s-2) 0;color:var(--text)}
        form.inline{display:inline}fieldset{border:1px solid var(--line);border-radius:var(--r-m);margin:var(--s-2) 0}
        .message{background:var(--note);padding:var(--s-2) var(--s-3);border-radius:var(--r-s)}
        /* tables and cards */
        table{border-collapse:collapse;width:100%}
        th,td{text-align:left;padding:var(--s-2) var(--s-2);border-bottom:1px solid var(--line);vertical-align:top}
        th{font-size:var(--t-s);color:var(--muted);font-weight:600}
        .scroll{overflow-x:auto}tr.offline td{color:var(--muted)}
        section{margin:var(--s-5) auto}
        .card,.record,.signin{background:var(--surface);border-radius:var(--r-m);box-shadow:var(--shadow);padding:var(--s-4)}
        @media (max-width:600px){th,td{padding:6px 4px}\
        #friends th:nth-child(n+5),#friends td:nth-child(n+5){display:none}#friends td{white-space:normal}\
        table.cards thead{display:none}table.cards tr{display:block;border-bottom:1px solid var(--line);padding:var(--s-2) 0}\
        table.cards td{display:block;border:0;padding:2px 4px;white-space:normal}}
        dl.fields{display:grid;grid-template-columns:auto 1fr;gap:2px var(--s-3);margin:var(--s-2) 0}\
        dl.fields dt{color:var(--muted);font-size:var(--t-s)}dl.fields dd{margin:0;overflow-wrap:anywhere}
        /* navigation inside a page */
        nav.days{display:flex;flex-wrap:wrap;gap:var(--s-2);align-items:center;margin:var(--s-3) auto}
        nav.days>a{padding:4px 12px;border-radius:999px;background:var(--surface);border:1px solid var(--line);font-size:var(--t-s);font-weight:600}
        nav.days form{margin:0;display:flex;flex-wrap:wrap;gap:6px;align-items:center}nav.days label{display:inline;margin:0}
        body>header:not(.bar){display:flex;justify-content:space-between;align-items:baseline;gap:var(--s-2);flex-wrap:wrap}
        /* sign in */
        body.login{display:grid;place-items:start center}
        .signin{width:min(360px,calc(100vw - 32px));margin:12vh auto 0;padding:var(--s-5)}\
        .signin h1{margin-top:0;display:flex;align-items:center;gap:var(--s-2)}.signin input{width:100%;margin-top:4px}\
        .signin button{width:100%;margin-top:var(--s-3)}
        /* the calendar */
        .months{display:grid;grid-template-columns:repeat(auto-fill,minmax(170px,1fr));gap:var(--s-4) var(--s-5)}
        .month{margin:0;scroll-margin-top:calc(var(--bar) + 12px)}.month:target h3{color:var(--accent)}
        .month h3{margin:0 0 4px}.weeks{display:grid;grid-template-columns:repeat(7,1fr);gap:2px}
        .weeks span,.weeks a{display:block;aspect-ratio:1;font-size:11px;line-height:1;padding:3px;border-radius:4px;color:var(--text)}
        .weeks a:hover{text-decoration:none;outline:1px solid var(--accent)}.weeks .wd{aspect-ratio:auto;text-align:center;color:var(--muted)}
        .l0{background:var(--surface-2)}.l1{background:#c6e0f5}.l2{background:#8cc0ea}.l3{background:#4a93d6;color:#fff!important}\
        .l4{background:#1f5fa8;color:#fff!important}.weeks a.today{outline:2px solid var(--m-record)}
        .legend .key{white-space:nowrap;margin-right:6px}.legend .key span{display:inline-block;width:14px;height:14px;border-radius:3px;vertical-align:middle}
        @media (prefers-color-scheme:dark){.l1{background:#23415e}.l2{background:#2b6399}}
        /* the year */
        .cards-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:var(--s-3)}
        .stat{background:var(--surface);border-radius:var(--r-m);box-shadow:var(--shadow);padding:var(--s-3) var(--s-4)}
        .stat b{display:block;font-size:var(--t-xl)}
        .bars-table td{vertical-align:middle}.bars-table svg.i{color:var(--mode)}\
        .meter{display:block;height:8px;border-radius:4px;background:var(--mode,var(--accent));margin:2px 0 4px;min-width:2px}
        ol.ranked{padding-left:1.4em}ol.ranked li{margin:0 0 var(--s-2)}ol.ranked .meter{opacity:.6}
        ul.columns{columns:14em;padding-left:1.2em}
        /* maps */
        .mapwrap{position:relative}
        #map{display:block;width:100%;height:320px;background:var(--map);border-radius:var(--r-m);touch-action:none;cursor:grab}
        #map.tall{height:70vh}#map.frame{height:auto}
        .day{transition:opacity .15s}.dim .day{opacity:.15}.dim .day.on{opacity:1}.dim .day.on .route{stroke-width:5}\
        tr.pick{cursor:pointer}tr.pick:hover{background:var(--surface-2)}tr.pick.on{font-weight:700}#map:focus-visible{outline:2px solid var(--focus)}
        .mapbg{fill:var(--map)}.tile{filter:var(--tile-filter)}
        .mapctl{position:absolute;top:var(--s-3);right:var(--s-3);display:flex;flex-direction:column;gap:6px;z-index:3}
        .mapctl button{width:38px;height:38px;min-height:0;padding:0;font-size:20px;box-shadow:var(--shadow)}
        .maptip{display:none;position:absolute;z-index:4;padding:4px 8px;border-radius:var(--r-s);font-size:var(--t-s);\
        white-space:nowrap;pointer-events:none;background:var(--surface);color:var(--text);box-shadow:var(--shadow)}
        .attribution{font-size:var(--t-xs);color:var(--muted);text-align:right}
        #map text{fill:var(--text)}#map .placename,#map .sharedname{paint-order:stroke;stroke:var(--surface);stroke-width:3px;font-weight:600}
        #map .place{fill:rgba(10,99,194,.18);stroke:var(--accent);stroke-width:2}
        #map .pick{fill:rgba(214,39,40,.15);stroke:#d62728;stroke-width:2;stroke-dasharray:6 4}
        #map .pickcentre{fill:#d62728}#map .handle{fill:#fff;stroke:#d62728;stroke-width:3;cursor:ew-resize}
        .tiles{display:none}.tiles[data-level="0"]{display:inline}
        .ink{fill:var(--text);stroke:var(--text)}.ink text{stroke:none}
        .route{fill:none;stroke-width:4;stroke-linejoin:round;stroke-linecap:round;vector-effect:non-scaling-stroke}
        .gap{fill:none;stroke-width:2;stroke-dasharray:6 5;opacity:.8;vector-effect:non-scaling-stroke}
        .pin rect{stroke:#fff;stroke-width:1.5}#map .pin text{fill:#fff;font-size:11px;font-weight:700}
        .hovermark{fill:#fff;stroke:var(--text);stroke-width:3;vector-effect:non-scaling-stroke;pointer-events:none}
        .focus .halo{fill:none;stroke:#fff;stroke-width:10;opacity:.85;vector-effect:non-scaling-stroke}
        .focus .line{fill:none;stroke:var(--m-record);stroke-width:5;vector-effect:non-scaling-stroke;stroke-linecap:round;stroke-linejoin:round}
        .focus circle{fill:rgba(179,38,30,.14);stroke:var(--m-record);stroke-width:3;vector-effect:non-scaling-stroke}
        /* the map first: a bar, the map filling the window, the day as a panel (wide) or a sheet (phone) */
        body.mapfirst-page{overflow:hidden;height:100dvh}
        .mapfirst{position:fixed;top:var(--bar);left:0;right:0;bottom:0}
        .mapfirst .mapwrap{position:absolute;inset:0 var(--panel) 0 0}
        .mapfirst #map{height:100%;border-radius:0}
        .mapfirst .attribution{position:absolute;right:calc(var(--panel) + 4px);bottom:2px;background:var(--surface);opacity:.85;padding:0 4px;border-radius:4px}
        .panel{position:absolute;top:0;right:0;bottom:0;width:var(--panel);overflow-y:auto;background:var(--surface);\
        border-left:1px solid var(--line);padding:0 var(--s-4) var(--s-6);overscroll-behavior:contain}
        .grip{display:none}
        .mapfirst .start,.mapfirst .end,.mapfirst .pin{transform:scale(1.4);transform-box:fill-box;transform-origin:center}
        @media (max-width:800px){.mapfirst .start,.mapfirst .end,.mapfirst .pin{transform:scale(2.6)}}
        @media (max-width:800px){.mapfirst .mapwrap{inset:0 0 42% 0}.mapfirst .attribution{right:4px;bottom:calc(42% + 16px)}\
        .panel{top:auto;left:0;width:auto;height:calc(42% + 14px);border-left:0;border-radius:var(--r-l) var(--r-l) 0 0;\
        box-shadow:0 -4px 18px rgba(0,0,0,.18);transition:height .2s ease}.panel.open{height:88%}\
        .grip{display:block;position:sticky;top:0;z-index:2;width:100%;min-height:0;height:22px;padding:0;border:0;\
        border-radius:var(--r-l) var(--r-l) 0 0;background:var(--surface)}.grip::before{content:"";display:block;width:40px;height:5px;\
        border-radius:3px;background:var(--line);margin:8px auto}}
        .panel h1{font-size:var(--t-l);margin:var(--s-3) 0 2px}
        .panelhead{display:flex;justify-content:space-between;align-items:center;gap:var(--s-2);flex-wrap:wrap}
        .panelhead form{display:flex;align-items:center;gap:6px;font-size:var(--t-s)}.panel section{margin:var(--s-5) 0}
        .panel #friends th:nth-child(n+5),.panel #friends td:nth-child(n+5){display:none}.panel #friends td{white-space:normal}
        .panel h2{font-size:var(--t-m);margin:var(--s-5) 0 var(--s-2)}
        .daynav{display:flex;align-items:center;gap:6px;padding-top:var(--s-3)}.daynav form{display:flex;gap:6px;flex:1;margin:0}
        .daynav input{flex:1;min-width:0}.daynav .button{padding:6px 10px}
        .totals{display:flex;flex-wrap:wrap;gap:4px var(--s-3);font-weight:600}
        .story{list-style:none;margin:var(--s-3) 0;padding:0;position:relative}
        .story li{position:relative;display:grid;grid-template-columns:32px 1fr;gap:2px var(--s-3);padding:var(--s-2) var(--s-2);\
        border-radius:var(--r-s);cursor:pointer}
        .story li:hover{background:var(--surface-2)}.story li.on{background:var(--accent-soft)}
        .story .icon{grid-row:span 3;width:32px;height:32px;border-radius:50%;display:grid;place-items:center;color:#fff;background:var(--m-stay)}
        .story .icon svg.i{width:18px;height:18px}
        .story li.move .icon{background:var(--mode,var(--m-stay))}.story li.note .icon{background:var(--m-record)}
        .story li.move::before{content:"";position:absolute;left:23px;top:-6px;bottom:-6px;border-left:3px dotted var(--mode,var(--m-stay));z-index:-1}
        .story .what{font-weight:600;overflow-wrap:anywhere}.story .when{font-size:var(--t-s);color:var(--muted)}
        .story .detail{font-size:var(--t-s)}.story details{grid-column:2;font-size:var(--t-s)}
        .story details summary{color:var(--muted);cursor:pointer}.story form{display:flex;flex-wrap:wrap;gap:6px;align-items:end}
        .story form label{margin:4px 0}
        .panel .record{box-shadow:none;border:1px solid var(--line);margin:var(--s-3) 0;scroll-margin-top:var(--s-4)}
        details.google{margin:var(--s-4) 0}details.google>summary{cursor:pointer;color:var(--muted)}
        .note{white-space:pre-wrap}.photos{display:flex;flex-wrap:wrap;gap:6px}.photos img{max-width:100%;max-height:240px;border-radius:var(--r-s)}
        .pinlabel{display:inline-block;min-width:1.5em;padding:0 .3em;text-align:center;border-radius:.3em;color:#fff;background:#333;margin-right:6px;font-weight:700}
        .edit textarea,.edit input[name=note]{width:100%}.edit{margin:var(--s-2) 0}
        .note-form{display:flex;gap:6px;align-items:end;flex-wrap:wrap}.note-form label{flex:1;min-width:10em}
        .swatch{display:inline-block;width:1.4em;height:.35em;border-radius:.2em;vertical-align:middle;margin-right:6px}
        .lanes{border-radius:var(--r-s);padding:4px 0;background:var(--surface-2)}
        .lane{position:relative;height:26px;margin:2px 8px}.lane .span{position:absolute;top:1px;height:24px;overflow:hidden;\
        white-space:nowrap;font-size:12px;line-height:24px;padding-left:3px;color:#111;border-radius:3px}\
        .lane .moment{position:absolute;top:2px;transform:translateX(-50%);font-size:16px;line-height:22px}
        .axis{display:flex;justify-content:space-between;gap:8px;font-size:var(--t-s);color:var(--muted);margin-top:2px}
        .panel svg:not(.i):not(#map){display:block;width:100%;height:auto;border-radius:var(--r-s)}
        .panel table{font-size:var(--t-s)}.panel .wide{display:none}
        /* the home page and other pages with a live map */
        .qrbox svg{width:220px;max-width:100%;height:auto}.url code{word-break:break-all}#token{word-break:break-all;font-size:20px}
        .code{font:700 28px/1.2 var(--mono);letter-spacing:2px}
        .fields{display:flex;flex-wrap:wrap;gap:4px 14px;align-items:end}.fields input{width:9em}\
        .fields label.wide{flex:1 1 16em}.fields label.wide input{width:100%}
        .checks{display:grid;grid-template-columns:repeat(auto-fill,minmax(15em,1fr))}.checks label{margin:2px 0}
        #alerts td{white-space:normal}#alerts td.target{word-break:break-all}ul.events{margin:0;padding-left:1.1em;font-size:var(--t-s)}
        #places td{white-space:normal}
        """

    /// The bar at the top of every signed-in page: the name and the app's places. `current`: the
    /// tab of the page ("day", "calendar", ...), marked for the reader and for screen readers.
    public static func bar(current: String) -> String {
        let tabs: [(key: String, href: String, icon: String, label: String)] = [
            ("home", "/", "home", "Live"), ("day", "/day", "day", "Day"),
            ("calendar", "/calendar", "calendar", "Calendar"),
            ("year", "/year", "year", "Year"), ("places", "/places", "stay", "Places"),
            ("friends", "/friends", "friends", "Friends"), ("alerts", "/alerts", "alerts", "Alerts"),
            ("import", "/import", "import", "Import"),
            ("export", "/export", "export", "Export"), ("settings", "/settings", "settings", "Settings"),
        ]
        let links = tabs.map { t in
            "<a href=\"\(t.href)\"\(t.key == current ? " aria-current=\"page\"" : "")>\(icon(t.icon))"
                + "<span>\(t.label)</span></a>"
        }
        return "<header class=\"bar\"><a class=\"brand\" href=\"/\" aria-label=\"Trailbook\">"
            + "<svg viewBox=\"0 0 32 32\" aria-hidden=\"true\">\(logo)</svg><span>Trailbook</span></a>"
            + "<nav class=\"tabs\" aria-label=\"Trailbook\">\(links.joined())</nav></header>"
    }

    /// An icon of the sprite, as inline SVG that uses it.
    public static func icon(_ name: String) -> String {
        "<svg class=\"i\" aria-hidden=\"true\"><use href=\"/icons.svg#\(name)\"/></svg>"
    }

    /// The mark: a trail that ends at a pin, on the accent colour.
    static let logo = """
        <rect width="32" height="32" rx="8" fill="#0a63c2"/><path d="M7 24c4-1 5-6 9-6s4 3 7 1" fill="none" \
        stroke="#fff" stroke-width="2.4" stroke-linecap="round" stroke-dasharray="3 3.2"/><path d="M22 6a4.5 4.5 0 0 \
        1 4.5 4.5c0 3.4-4.5 7.5-4.5 7.5s-4.5-4.1-4.5-7.5A4.5 4.5 0 0 1 22 6z" fill="#fff"/><circle cx="22" cy="10.5" \
        r="1.7" fill="#0a63c2"/>
        """

    /// The app's icon (favicon, manifest), 512 units square.
    public static let appIcon = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="512" height="512">\(logo)</svg>
        """

    /// The icon of a travel mode (`cycling`, `walking`, ... as ``TravelMode`` names them); a
    /// stay's, and a still trip's, is `stay`.
    public static func modeIcon(_ mode: String) -> String {
        ["walking", "running", "cycling", "car", "train", "plane"].contains(mode)
            ? mode : mode == "still" ? "stay" : "move"
    }

    /// The icons, 24 units square, drawn with strokes of the current colour.
    public static let sprite = """
        <svg xmlns="http://www.w3.org/2000/svg">\
        <symbol id="stay" viewBox="0 0 24 24"><path d="M12 21s-7-6.2-7-11.5A7 7 0 0 1 19 9.5C19 14.8 12 21 12 21z"/><circle cx="12" cy="9.5" r="2.5"/></symbol>\
        <symbol id="walking" viewBox="0 0 24 24"><circle cx="13" cy="4" r="2"/><path d="M10 21l2-6-3-3 1-5 3 2 3 1M12 15l3 6M9 12l-2 3"/></symbol>\
        <symbol id="running" viewBox="0 0 24 24"><circle cx="15" cy="4" r="2"/><path d="M6 20l4-3 1-4 3 2v5M11 13l1-5-4 1-2 3M12 8l3 3 3 0"/></symbol>\
        <symbol id="cycling" viewBox="0 0 24 24"><circle cx="5.5" cy="17" r="3.5"/><circle cx="18.5" cy="17" r="3.5"/><path d="M5.5 17L9 9h6l3.5 8M9 9l3 8 3-8M13 6h3"/></symbol>\
        <symbol id="car" viewBox="0 0 24 24"><path d="M4 16V12l2-5h12l2 5v4zM4 16v3M20 16v3M4 12h16"/><circle cx="7.5" cy="14" r=".5"/><circle cx="16.5" cy="14" r=".5"/></symbol>\
        <symbol id="train" viewBox="0 0 24 24"><rect x="6" y="3" width="12" height="13" rx="3"/><path d="M6 10h12M8 21l2-5M16 21l-2-5"/><circle cx="9" cy="13" r=".5"/><circle cx="15" cy="13" r=".5"/></symbol>\
        <symbol id="plane" viewBox="0 0 24 24"><path d="M2 13l8-1 4-8h2l-2 8 6 1 1-3h1.5l-.5 4 .5 4H21l-1-3-6 1 2 8h-2l-4-8-8-1z"/></symbol>\
        <symbol id="move" viewBox="0 0 24 24"><path d="M5 12h14M13 6l6 6-6 6"/></symbol>\
        <symbol id="record" viewBox="0 0 24 24"><path d="M4 20h4L19 9l-4-4L4 16zM13 7l4 4"/></symbol>\
        <symbol id="home" viewBox="0 0 24 24"><circle cx="12" cy="12" r="3"/><circle cx="12" cy="12" r="8"/><path d="M12 2v3M12 19v3M2 12h3M19 12h3"/></symbol>\
        <symbol id="day" viewBox="0 0 24 24"><path d="M3 6l6-2 6 2 6-2v14l-6 2-6-2-6 2zM9 4v14M15 6v14"/></symbol>\
        <symbol id="calendar" viewBox="0 0 24 24"><rect x="3" y="5" width="18" height="16" rx="2"/><path d="M3 10h18M8 3v4M16 3v4"/></symbol>\
        <symbol id="year" viewBox="0 0 24 24"><path d="M4 20V10M10 20V4M16 20v-8M22 20H2"/></symbol>\
        <symbol id="friends" viewBox="0 0 24 24"><circle cx="9" cy="8" r="3.5"/><path d="M2 20c0-4 3-6 7-6s7 2 7 6"/><circle cx="17" cy="7" r="2.5"/><path d="M17 12c3 0 5 2 5 5"/></symbol>\
        <symbol id="alerts" viewBox="0 0 24 24"><path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 21h4"/></symbol>\
        <symbol id="import" viewBox="0 0 24 24"><path d="M12 3v12M7 10l5 5 5-5M4 17v3h16v-3"/></symbol>\
        <symbol id="export" viewBox="0 0 24 24"><path d="M12 15V3M7 8l5-5 5 5M4 17v3h16v-3"/></symbol>\
        <symbol id="settings" viewBox="0 0 24 24"><circle cx="12" cy="12" r="3"/><path d="M12 2v3M12 19v3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M2 12h3M19 12h3M4.9 19.1L7 17M17 7l2.1-2.1"/></symbol>\
        <symbol id="prev" viewBox="0 0 24 24"><path d="M15 5l-7 7 7 7"/></symbol>\
        <symbol id="next" viewBox="0 0 24 24"><path d="M9 5l7 7-7 7"/></symbol>\
        </svg>
        """

    /// A short digest of the stylesheet, sprite and scripts (FNV-1a, hex): their links carry it,
    /// so a browser keeps them until the program changes.
    public static func version(_ texts: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for text in texts {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
        }
        return String(hash, radix: 16)
    }
}
