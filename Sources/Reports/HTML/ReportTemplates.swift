import PageTemplates

/// The reports' pages as Mustache templates (``PageTemplates``: what they insert is escaped).
/// The values come from ``DayReport`` and ``OverlayReport``.
enum ReportTemplates {
    static let pages = PageTemplates([
        (name: "report-head", text: head), ("day", day), ("day-map", dayMap), ("profile", profile),
        ("timeline", timeline), ("overlay", overlay), ("suggestions", suggestions), ("tiles", tiles),
        ("webday", webDay), ("webdays", webOverlay), ("webrecord", webRecord),
    ])

    /// The head of a served page: the app's stylesheet, icons and manifest (``AppStyle``).
    static let webHead = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}}</title>
        <link rel="stylesheet" href="/app.css"><link rel="icon" href="/favicon.ico" sizes="32x32">
        <link rel="icon" href="/icon.svg" type="image/svg+xml"><link rel="manifest" href="/manifest.webmanifest">
        <meta name="theme-color" content="#0a63c2">
        </head>
        """

    /// The served day: the map filling the window, the day beside it (wide) or as a sheet over
    /// its lower part (phone): the day's stays, moves and records in time order, then what
    /// changes the diary, the rides, the elevation and the timeline.
    static let webDay = """
        \(webHead)
        <body class="{{theme}} mapfirst-page">\(AppStyle.bar(current: "day"))
        {{#web}}<div class="mapfirst">
        {{#map}}{{> day-map}}{{/map}}{{#attribution}}<div class="attribution">{{.}}</div>{{/attribution}}
        <aside class="panel" id="panel" aria-label="The day">\
        <button type="button" class="grip" id="grip" aria-expanded="false" aria-controls="panel" \
        aria-label="Show more of the day"></button>
        <nav class="daynav" aria-label="Days"><a class="button quiet" href="{{previous}}" rel="prev" \
        aria-label="The day before">\(AppStyle.icon("prev"))</a><form method="get" action="/day" class="pickday">\
        <input type="date" name="date" value="{{date}}" required aria-label="Day"><button class="quiet">Show</button></form>\
        <a class="button quiet" href="{{next}}" rel="next" aria-label="The day after">\(AppStyle.icon("next"))</a></nav>
        {{#message}}<p class="message" id="message" role="status">{{.}}</p>{{#undo}}<form method="post" \
        action="{{correctAction}}" class="undo" id="undo"><input type="hidden" name="csrf" value="{{csrf}}">\
        <input type="hidden" name="edit" value="undo"><input type="hidden" name="id" value="{{.}}">\
        <button class="quiet">Undo</button></form>{{/undo}}{{/message}}
        <h1>{{written}}</h1>{{/web}}
        {{#totals}}<div class="totals"><span>{{distance}}</span><span>moving {{moving}}</span><span>climb {{climb}}</span></div>{{/totals}}
        <div class="muted">{{zone}} · {{rideCount}} · {{recordCount}}</div>
        {{#web}}<form method="post" action="{{markAction}}" class="edit card" id="mark" hidden><input type="hidden" name="csrf" \
        value="{{csrf}}"><input type="hidden" name="lat"><input type="hidden" name="lon"><p>A new record at \
        <span id="markplace"></span></p><label>Time <input type="time" name="time" required value="12:00"></label>\
        <label>Note <input name="note" maxlength="10000"></label><button>Add the record</button></form>
        <form method="post" action="{{correctAction}}" class="edit card" id="addstay" hidden><input type="hidden" \
        name="csrf" value="{{csrf}}"><input type="hidden" name="edit" value="add"><input type="hidden" name="lat">\
        <input type="hidden" name="lon"><p>Or a stay the day missed there</p><label>From <input type="time" \
        name="from" required></label><label>to <input type="time" name="to" required></label>\
        <button>Add the stay</button></form>{{/web}}
        <ol class="story" id="movements" aria-label="Where you were">{{#story}}<li class="{{kind}}" id="{{id}}" tabindex="0" \
        {{#box}}data-box="{{.}}" {{/box}}style="--mode:var(--m-{{mode}})"><span class="icon"><svg class="i" aria-hidden="true">\
        <use href="/icons.svg#{{icon}}"/></svg></span><span class="what">{{name}}{{#corrected}} \
        <span class="muted">(as you said)</span>{{/corrected}}</span><span class="when">{{span}}{{#detail}} · {{.}}{{/detail}}</span>\
        {{#record}}<a class="detail" href="#record-{{.}}">the record</a>{{/record}}\
        {{#action}}<details><summary>Put right</summary>\
        <form method="post" action="{{action}}" class="edit"><input type="hidden" name="csrf" value="{{csrf}}">\
        <input type="hidden" name="at" value="{{at}}">{{#modes}}<label>Mode <select name="mode">{{#options}}\
        <option{{#selected}} selected{{/selected}}>{{value}}</option>{{/options}}</select></label>{{/modes}}\
        {{#places}}<label>It was at <select name="place">{{#options}}<option value="{{value}}"\
        {{#selected}} selected{{/selected}}>{{name}}</option>{{/options}}</select></label>{{/places}} \
        <button>Save</button></form>{{#rename}}<form method="post" action="{{action}}" class="edit">\
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="place_id" value="{{place}}">\
        <label>Name this place <input name="name" maxlength="200" value="{{current}}"></label> \
        <button>Name it</button></form>{{/rename}}{{#edit}}<form method="post" action="{{action}}" class="edit">\
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="at" value="{{at}}">\
        <input type="hidden" name="edit" value="times"><input type="hidden" name="from_day" value="{{fromDay}}">\
        <input type="hidden" name="to_day" value="{{toDay}}"><label>From <input type="time" name="from" \
        value="{{from}}" required></label><label>to <input type="time" name="to" value="{{to}}" required></label> \
        <button>Change the hours</button></form><form method="post" action="{{action}}" class="edit">\
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="at" value="{{at}}">\
        <input type="hidden" name="edit" value="split"><label>Two stays from <input type="time" name="split" \
        required></label> <button>Split</button></form>{{#merge}}<form method="post" action="{{action}}" \
        class="edit"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="at" value="{{at}}">\
        <input type="hidden" name="edit" value="merge"><input type="hidden" name="other" value="{{.}}">\
        <button>One stay with the next</button></form>{{/merge}}{{/edit}}<form method="post" action="{{action}}" \
        class="edit"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="at" value="{{at}}">\
        <input type="hidden" name="edit" value="remove"><button class="quiet">It never happened</button></form>\
        </details>{{/action}}</li>{{/story}}</ol>
        {{^story}}<p class="muted" id="nostory">Nothing recorded this day. Tap the map to add a record.</p>{{/story}}
        {{#web}}<p class="muted">Pick a stay or a move to see it on the map; tap the map to add a record there.</p>
        <form method="post" action="{{summaryAction}}" class="edit" id="summary">\
        <input type="hidden" name="csrf" value="{{csrf}}"><label for="summary-text">The day’s summary</label>\
        <textarea id="summary-text" name="summary" rows="3" maxlength="10000">{{summaryText}}</textarea>\
        <button>Save the summary</button></form>{{/web}}
        {{#hasRecords}}<h2>Records</h2>
        {{#records}}{{> webrecord}}
        {{/records}}{{/hasRecords}}{{#google}}<details class="google" id="google"><summary>What {{who}} \
        kept: {{count}}</summary>{{#records}}{{> webrecord}}{{/records}}</details>{{/google}}\
        {{#hasRides}}<h2>Rides</h2>
        <table><tr><th>ride</th><th>time</th><th>distance</th><th>moving</th><th>climb</th></tr>\
        {{#rides}}<tr><td class="nowrap"><span class="swatch" style="background:{{colour}}"></span>{{id}}</td>\
        <td><span class="nowrap">{{start}}</span>–<span class="nowrap">{{end}}</span></td>\
        <td class="nowrap">{{distance}}</td><td>{{moving}}</td><td class="nowrap">{{climb}}</td></tr>{{/rides}}</table>
        <h2>Elevation</h2>
        {{#profile}}{{> profile}}{{/profile}}
        {{/hasRides}}<h2>Timeline</h2>
        {{#timeline}}{{> timeline}}{{/timeline}}
        {{#suggest}}{{> suggestions}}{{/suggest}}
        </aside></div>
        {{#web}}<script src="{{script}}"></script>{{/web}}
        </body></html>

        """

    static let head = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}}</title>
        <style>\(ReportStyle.css){{#overlay}}
        .day{transition:opacity .15s}.dim .day{opacity:.15}.dim .day.on{opacity:1}.dim .day.on .route{stroke-width:5}
        tr.pick{cursor:pointer}tr.pick.on{font-weight:700}{{/overlay}}</style></head>
        <body class="{{theme}}">

        """

    static let footer = """
        <footer class="muted">{{^web}}<p>Made by Trailbook. Nothing on this page comes from the network.</p>{{/web}}</footer>
        </body></html>

        """

    /// A report file's day (``DayReport``): self-contained, the served page is ``webDay``.
    static let day = """
        {{> report-head}}
        {{#back}}<nav><a href="{{.}}">← all days</a></nav>{{/back}}<header><h1 class="nowrap">{{weekday}}{{date}}</h1>
        {{#totals}}<div class="totals"><span class="nowrap">{{distance}}</span> · <span class="nowrap">moving {{moving}}</span> · \
        <span class="nowrap">climb {{climb}}</span></div>{{/totals}}<div class="muted">{{zone}} · {{rideCount}} · {{recordCount}}</div></header>

        {{#summary}}<p class="summary">{{.}}</p>
        {{/summary}}<h2>Map</h2>
        {{#map}}{{> day-map}}{{/map}}{{#attribution}}<div class="attribution">{{.}}</div>{{/attribution}}
        {{#hasRides}}<h2>Rides</h2>
        <table><tr><th>ride</th><th>time</th><th>distance</th><th>moving</th><th class="wide">avg speed</th>\
        <th class="wide">max</th><th>climb</th><th class="wide">descent</th></tr>\
        {{#rides}}<tr><td class="nowrap"><span class="swatch" style="background:{{colour}}"></span>ride {{id}}</td>\
        <td><span class="nowrap">{{start}}</span>–<span class="nowrap">{{end}}</span></td>\
        <td class="nowrap">{{distance}}</td><td>{{moving}}</td><td class="wide nowrap">{{average}}</td>\
        <td class="wide nowrap">{{max}}</td><td class="nowrap">{{climb}}</td><td class="wide nowrap">{{descent}}</td></tr>{{/rides}}</table>
        <h2>Elevation</h2>
        {{#profile}}{{> profile}}{{/profile}}
        {{/hasRides}}<h2>Timeline</h2>
        {{#timeline}}{{> timeline}}{{/timeline}}
        {{#hasRecords}}<h2>Records</h2>
        {{#records}}<section class="record" id="record-{{id}}"><div>{{#pinned}}<span class="pinlabel">{{id}}</span>{{/pinned}}\
        <strong>{{time}}</strong> <span class="muted">record {{id}} · {{position}}</span></div>
        {{#notes}}<p class="note">{{.}}</p>
        {{/notes}}{{#hasFields}}<table>{{#fields}}<tr><th>{{key}}</th><td>{{value}}</td></tr>{{/fields}}</table>
        {{/hasFields}}{{#hasPhotos}}<div class="photos">{{#photos}}<a href="{{source}}"><img src="{{source}}" alt="{{name}}"></a>{{/photos}}</div>
        {{/hasPhotos}}</section>
        {{/records}}{{/hasRecords}}{{#suggest}}{{> suggestions}}{{/suggest}}<script>\(MapScript.js)</script>\(footer)
        """

    /// What `suggest` found for each record kind: a small table and the coming windows.
    static let suggestions = """
        <h2>What goes with your records</h2>
        {{#tables}}<h3>{{kind}} <span class="muted">· {{basis}}</span></h3>
        {{#hasRows}}<table class="suggest"><tr><th>condition</th><th>bin</th><th>records</th><th>lift</th></tr>\
        {{#rows}}<tr><td>{{condition}}</td><td class="nowrap">{{bin}}</td><td>{{count}}</td><td>{{lift}}</td></tr>{{/rows}}</table>
        {{/hasRows}}{{^hasRows}}<p class="muted">No condition passes the sample rule (at least 5 records, more than chance).</p>
        {{/hasRows}}{{#hasWindows}}<p>Coming windows:</p><ul>{{#windows}}<li>{{.}}</li>{{/windows}}</ul>
        {{/hasWindows}}{{/tables}}<p class="muted">Lift: the records per hour out there in the bin over all of them; \
        an association in your own records, not a cause (docs/CONDITIONS.md).</p>
        """

    /// The base map's levels: level 0 covers the map; deeper ones, along the routes, are shown by
    /// the map's script once the page is zoomed in far enough for them.
    static let tiles = """
        {{#tileLevels}}<g class="tiles" data-level="{{level}}">{{#tiles}}<image class="tile" data-tile="{{key}}" \
        href="{{href}}" x="{{x}}" y="{{y}}" width="{{size}}" height="{{size}}" preserveAspectRatio="none"/>{{/tiles}}</g>{{/tileLevels}}
        """

    /// Pan and zoom buttons and the hover tip, over a map.
    static let mapControls = """
        <div class="mapctl"><button type="button" data-map="in" aria-label="Zoom in">+</button>\
        <button type="button" data-map="out" aria-label="Zoom out">−</button>\
        <button type="button" data-map="fit" aria-label="Fit to the routes">⤢</button></div>\
        <div id="maptip" class="maptip" role="status"></div>
        """

    static let dayMap = """
        <div class="mapwrap"><svg id="map" viewBox="0 0 {{width}} {{height}}" xmlns="http://www.w3.org/2000/svg" role="img" \
        tabindex="0" aria-label="Map of the day’s routes (drag to pan; wheel, pinch, + and − to zoom; 0 to fit)" \
        data-projection="{{projection}}"{{#fit}} data-fit="{{.}}"{{/fit}}>\
        <rect class="mapbg" x="-100%" y="-100%" width="300%" height="300%"/>
        {{> tiles}}
        {{#rides}}<g class="ride" data-ride="{{id}}">{{#parts}}{{#gap}}<line class="gap" stroke="{{colour}}" \
        x1="{{x1}}" y1="{{y1}}" x2="{{x2}}" y2="{{y2}}"/>{{/gap}}<path class="route" stroke="{{colour}}" d="{{d}}"/>{{/parts}}\
        {{#ends}}<circle class="start" cx="{{ax}}" cy="{{ay}}" r="6" fill="{{markerFill}}" stroke="{{markerEdge}}" \
        stroke-width="3"><title>start of ride {{id}}</title></circle><rect class="end" x="{{bx}}" y="{{by}}" width="12" \
        height="12" fill="{{markerEdge}}" stroke="{{markerFill}}" stroke-width="2"><title>end of ride {{id}}</title></rect>{{/ends}}</g>
        {{/rides}}{{#story}}{{#focus}}<g class="focus" data-for="{{id}}" visibility="hidden">{{#line}}<path class="halo" \
        d="{{.}}"/><path class="line" d="{{.}}"/>{{/line}}{{#circle}}<circle cx="{{x}}" cy="{{y}}" r="{{r}}"/>{{/circle}}</g>\
        {{/focus}}{{/story}}{{#pins}}<g class="pin"><a href="#record-{{id}}"><rect x="{{x}}" y="{{y}}" width="{{w}}" height="18" \
        rx="4" fill="#333"/><text x="{{tx}}" y="{{ty}}" text-anchor="middle">{{id}}</text><title>record {{id}}</title></a></g>
        {{/pins}}{{^fit}}{{#bar}}<g class="ink"><rect x="20" y="{{y}}" width="{{width}}" height="4"/><text x="20" y="{{ty}}" \
        font-size="12" stroke="none">{{label}}</text></g>{{/bar}}{{/fit}}
        <circle id="hover" class="hovermark" r="7" visibility="hidden"/><circle id="markpin" r="8" fill="#d62728" \
        stroke="#fff" stroke-width="3" visibility="hidden"/></svg>\(mapControls)</div>
        <div id="track-data" hidden data-points="{{trackData}}"></div>
        """

    static let profile = """
        {{#none}}<p class="muted">No altitudes recorded.</p>{{/none}}{{^none}}<svg viewBox="0 0 {{width}} {{height}}" \
        xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Elevation profile{{#heart}} and heart rate{{/heart}}">\
        <rect class="mapbg" width="100%" \
        height="100%"/>{{#paths}}<path class="route" stroke="{{colour}}" d="{{d}}"/>{{/paths}}\
        {{#heart}}{{#paths}}<path class="heart" d="{{.}}" fill="none" stroke="#8e44ad" stroke-width="1.5" \
        stroke-dasharray="4 3"/>{{/paths}}{{/heart}}\
        <circle id="phover" class="hovermark" r="5" visibility="hidden"/></svg><div class="axis">\
        <span>lowest {{lowest}}</span><span>highest {{highest}}</span>{{#heart}}<span class="heart-scale">\
        heart rate {{low}}–{{high}} bpm (dashed)</span>{{/heart}}<span>{{distance}}</span></div>{{/none}}
        """

    static let timeline = """
        {{#empty}}<p class="muted">Nothing recorded.</p>{{/empty}}{{^empty}}{{#lanes}}<div id="timeline" \
        class="lanes" role="img" aria-label="Timeline of the day">{{#lane}}<div class="lane">\
        {{#spans}}<div class="span k-{{kind}}" style="left:{{x}}%;width:{{w}}%;background:{{colour}}" \
        title="{{tip}}">{{label}}</div>{{/spans}}{{#moments}}<span class="moment k-{{kind}}" style="left:{{x}}%" \
        title="{{tip}}">{{icon}}</span>{{/moments}}</div>{{/lane}}</div><div class="axis"><span class="nowrap">{{first}}</span>\
        <span class="nowrap">{{last}}</span></div>
        <p class="muted legend">{{#legend}}<span class="nowrap">{{icon}} {{kind}}</span> {{/legend}}</p>
        {{/lanes}}{{^lanes}}<table class="timeline"><tr><th>time</th><th>what</th><th></th></tr>\
        {{#rows}}<tr class="k-{{kind}}"><td class="nowrap">{{time}}</td><td class="nowrap">{{icon}} {{kind}}</td>\
        <td>{{#link}}<a href="{{.}}">{{/link}}{{title}}{{#link}}</a>{{/link}}{{#detail}} <span class="muted">· {{.}}</span>{{/detail}}</td></tr>{{/rows}}\
        </table>{{/lanes}}{{/empty}}
        """

    static let overlay = """
        {{> report-head}}
        \(overlayMain)
        """

    /// A record on the served day: its time, notes, fields as labelled values, photos and the forms
    /// that add to it or delete it.
    static let webRecord = """
        <section class="record" id="record-{{id}}"><div>{{#pinned}}<span class="pinlabel">{{id}}</span>{{/pinned}}\
        <strong>{{time}}</strong> <span class="muted">record {{id}} · {{position}}</span></div>
        {{#notes}}<p class="note">{{.}}</p>
        {{/notes}}{{#hasFields}}<dl class="fields">{{#fields}}<dt>{{label}}</dt><dd>{{value}}</dd>{{/fields}}</dl>
        {{/hasFields}}{{#hasPhotos}}<div class="photos">{{#photos}}<a href="{{source}}"><img src="{{source}}" alt="{{name}}"></a>{{/photos}}</div>
        {{/hasPhotos}}{{#noteAction}}<form method="post" action="{{.}}" class="edit note-form"><input type="hidden" \
        name="csrf" value="{{csrf}}"><label>Add a note <input name="note" maxlength="10000" required></label> \
        <button>Add</button></form>{{#photoAction}}<form class="edit photo-form" data-action="{{.}}"><label>Add a photo \
        (JPEG) <input type="file" name="photo" accept="image/jpeg" required></label> <button>Upload</button> \
        <span class="upload-status" role="status"></span></form>{{/photoAction}}\
        <p><a href="{{deleteLink}}" class="delete">Delete record {{id}}…</a></p>{{/noteAction}}</section>
        """

    /// The served overlay: the app's look and bar, the range's form, then what a report file shows.
    static let webOverlay = """
        \(webHead)
        <body class="{{theme}}">\(AppStyle.bar(current: "calendar"))
        {{#web}}<header><h1>{{title}}</h1><span class="muted">signed in as <strong id="me">{{user}}</strong></span></header>
        <nav class="days"><a href="{{calendar}}">Calendar</a><form method="get" action="/days" class="pickday">\
        <label>From <input type="date" name="from" value="{{from}}" required></label> <label>to <input type="date" \
        name="to" value="{{to}}" required></label> <button class="quiet">Show</button></form></nav>
        {{#message}}<p class="message" id="message" role="status">{{.}}</p>{{/message}}{{/web}}\
        \(overlayMain)
        """

    /// The overlay's map, its list of days and its script, in a report file and served.
    static let overlayMain = """
        {{^web}}<header><h1>{{title}}</h1><div class="muted">{{dayCount}} · {{total}}</div></header>{{/web}}\
        {{#web}}<p class="muted">{{dayCount}} · {{total}}</p>{{/web}}
        <h2>Map</h2>
        {{#map}}<div class="mapwrap"><svg id="map" class="frame" viewBox="0 0 {{width}} {{height}}" \
        xmlns="http://www.w3.org/2000/svg" role="img" tabindex="0" aria-label="Routes of {{dayCount}} (drag to pan; wheel, pinch, + and − to zoom; 0 to fit)">\
        <rect class="mapbg" width="100%" height="100%"/>
        {{> tiles}}
        {{#days}}<g class="day" id="day-{{date}}" stroke="{{colour}}">{{#paths}}<path class="route" d="{{.}}"/>{{/paths}}\
        {{#places}}<circle class="place" cx="{{x}}" cy="{{y}}" r="4" fill="{{colour}}"/>{{/places}}</g>
        {{/days}}{{#bar}}<g class="ink"><rect x="20" y="{{y}}" width="{{width}}" height="4"/><text x="20" y="{{ty}}" \
        font-size="12" stroke="none">{{label}}</text></g>{{/bar}}<circle id="hover" class="hovermark" r="7" \
        visibility="hidden"/></svg>\(mapControls)</div>
        <div id="track-data" hidden data-points="{{trackData}}"></div>{{/map}}\
        {{#attribution}}<div class="attribution">{{.}}</div>{{/attribution}}
        <h2>Days</h2>
        <p class="muted">Select a day to highlight its route; select it again to show all.</p>
        <div class="scroll"><table><tr><th>day</th><th>distance</th><th>moving</th><th></th></tr>\
        {{#rows}}<tr class="pick" data-day="{{date}}"><td><span class="swatch" style="background:{{colour}}"></span>\
        <span class="nowrap">{{shown}}</span>{{#summary}}<div class="muted daysummary">{{.}}</div>{{/summary}}</td>\
        {{#ride}}<td class="nowrap">{{distance}}</td><td>{{moving}}</td>{{/ride}}{{^ride}}<td>no ride</td><td></td>{{/ride}}\
        <td><a href="{{link}}">{{#web}}the day{{/web}}{{^web}}day report{{/web}}</a></td></tr>{{/rows}}</table></div>
        {{#suggest}}{{> suggestions}}{{/suggest}}
        {{#inline}}<script>
        \(MapScript.overlay)
        </script>{{/inline}}{{#web}}<script src="{{script}}"></script>{{/web}}
        \(footer)
        """
}
