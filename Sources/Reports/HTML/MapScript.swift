/// The maps' few lines of script (inline; nothing loaded): pan by dragging, zoom with the wheel,
/// a pinch, the +/− buttons or the keyboard (+, −, arrows, 0 to fit), all by changing the SVG's
/// viewBox, so routes stay sharp; the base map's deeper levels shown once the view is zoomed in
/// far enough for them; and the nearest track point under the pointer (or a tap) shown with its
/// tip, marked on the map and on the profile (the day map: ride, time, speed, elevation; the
/// overlay: the day, and a tap highlights it).
/// A tap (a press without a drag) is announced as a `maptap` event on the map, with the frame
/// point and the track point it hit, for a page that does something with it (the served day page
/// marks a record there).
/// It goes into the templates as it is: it must hold no `{{` (a Mustache tag).
public enum MapScript {
    public static let js = """
        (function(){
        var svg=document.getElementById('map');if(!svg)return;
        var box=svg.viewBox.baseVal,W=box.width,H=box.height,v={x:0,y:0,w:W,h:H};
        var home=(svg.getAttribute('data-fit')||'').split(' ').map(Number);if(home.length!==4)home=[0,0,W,H];
        function ratio(){var r=svg.getBoundingClientRect(),k=r.width>0&&r.height>0?r.height/r.width:H/W;
        return Math.abs(k*W/H-1)<0.01?H/W:k}
        function show(b,pad){var R=ratio(),cx=b[0]+b[2]/2,cy=b[1]+b[3]/2,w=Math.max(b[2],b[3]/R)*(pad||1);
        w=Math.max(W/32,Math.min(Math.max(W,H/R),w));v={x:cx-w/2,y:cy-w*R/2,w:w,h:w*R};set()}
        var levels=svg.querySelectorAll('g.tiles');
        function set(){svg.setAttribute('viewBox',v.x+' '+v.y+' '+v.w+' '+v.h);
        svg.style.setProperty('--zoom',W/v.w);
        for(var i=0;i<levels.length;i++){var k=+levels[i].getAttribute('data-level');
        levels[i].style.display=k===0||W/v.w*1.5>=Math.pow(2,k)?'inline':'none'}}
        function at(cx,cy){var m=svg.getScreenCTM();if(!m)return{x:v.x+v.w/2,y:v.y+v.h/2};
        var p=svg.createSVGPoint();p.x=cx;p.y=cy;return p.matrixTransform(m.inverse())}
        function zoom(f,cx,cy){var w=Math.max(W/32,Math.min(Math.max(W,H/ratio()),v.w/f)),k=w/v.w,
        c=cx===undefined?{x:v.x+v.w/2,y:v.y+v.h/2}:at(cx,cy);
        v.x=c.x-(c.x-v.x)*k;v.y=c.y-(c.y-v.y)*k;v.w=w;v.h=w*ratio();clamp();set()}
        function clamp(){v.x=Math.max(-v.w/2,Math.min(W-v.w/2,v.x));v.y=Math.max(-v.h/2,Math.min(H-v.h/2,v.y))}
        function fit(){show(home,home[2]===W?1:1.15)}
        svg.addEventListener('mapfit',function(e){show(e.detail,1.25)});
        window.addEventListener('resize',function(){var c={x:v.x+v.w/2,y:v.y+v.h/2};v.h=v.w*ratio();v.x=c.x-v.w/2;v.y=c.y-v.h/2;set()});
        function pan(dx,dy){v.x+=dx;v.y+=dy;clamp();set()}
        svg.addEventListener('wheel',function(e){e.preventDefault();zoom(e.deltaY<0?1.25:0.8,e.clientX,e.clientY)},{passive:false});
        var down={},moved=false,pinch=0;
        svg.addEventListener('pointerdown',function(e){down[e.pointerId]={x:e.clientX,y:e.clientY};moved=false;
        var ids=Object.keys(down);if(ids.length===2){var a=down[ids[0]],b=down[ids[1]];pinch=Math.hypot(a.x-b.x,a.y-b.y)}});
        svg.addEventListener('pointermove',function(e){var d=down[e.pointerId];
        if(!d){hover(e.clientX,e.clientY);return}
        var ids=Object.keys(down);
        if(ids.length===2){d.x=e.clientX;d.y=e.clientY;var a=down[ids[0]],b=down[ids[1]],
        n=Math.hypot(a.x-b.x,a.y-b.y);if(pinch>0)zoom(n/pinch,(a.x+b.x)/2,(a.y+b.y)/2);pinch=n;moved=true;return}
        var p=at(d.x,d.y),q=at(e.clientX,e.clientY);
        if(Math.abs(e.clientX-d.x)+Math.abs(e.clientY-d.y)>3){moved=true;svg.setPointerCapture&&svg.setPointerCapture(e.pointerId)}
        if(moved){pan(p.x-q.x,p.y-q.y);d.x=e.clientX;d.y=e.clientY}});
        function up(e){var d=down[e.pointerId];delete down[e.pointerId];pinch=0;
        if(d&&!moved){var b=hover(e.clientX,e.clientY);if(b&&days){var day=days[b[4]];
        location.hash=location.hash==='#'+day?'':day}var q=at(e.clientX,e.clientY);
        svg.dispatchEvent(new CustomEvent('maptap',{detail:{x:q.x,y:q.y,point:b}}))}}
        svg.addEventListener('pointerup',up);svg.addEventListener('pointercancel',up);
        svg.addEventListener('keydown',function(e){var s=v.w/10,k=e.key;
        if(k==='+'||k==='=')zoom(1.25);else if(k==='-'||k==='_')zoom(0.8);else if(k==='0')fit();
        else if(k==='ArrowLeft')pan(-s,0);else if(k==='ArrowRight')pan(s,0);
        else if(k==='ArrowUp')pan(0,-s);else if(k==='ArrowDown')pan(0,s);else return;e.preventDefault()});
        document.querySelectorAll('[data-map]').forEach(function(b){b.addEventListener('click',function(){
        var a=b.getAttribute('data-map');if(a==='in')zoom(1.25);else if(a==='out')zoom(0.8);else fit()})});
        var data=document.getElementById('track-data'),tip=document.getElementById('maptip');
        var info=data?JSON.parse(data.getAttribute('data-points')):{},pts=info.points||[],tips=info.tips||[],days=info.days;
        var mark=document.getElementById('hover'),pmark=document.getElementById('phover');
        function hover(cx,cy){if(!pts.length||!tip)return null;var p=at(cx,cy),best=null,bd=Infinity;
        for(var i=0;i<pts.length;i++){var dx=pts[i][0]-p.x,dy=pts[i][1]-p.y,d=dx*dx+dy*dy;if(d<bd){bd=d;best=pts[i]}}
        var px=Math.sqrt(bd)*svg.getBoundingClientRect().width/v.w;
        if(!best||px>16){tip.style.display='none';if(mark)mark.setAttribute('visibility','hidden');
        if(pmark)pmark.setAttribute('visibility','hidden');return null}
        tip.textContent=typeof best[4]==='number'?tips[best[4]]:best[4];
        tip.style.display='block';var r=svg.getBoundingClientRect(),o=svg.parentNode.getBoundingClientRect();
        tip.style.left=Math.min(cx-o.left+12,o.width-tip.offsetWidth-4)+'px';tip.style.top=(cy-o.top+12)+'px';
        if(mark){mark.setAttribute('cx',best[0]);mark.setAttribute('cy',best[1]);mark.setAttribute('visibility','visible')}
        if(pmark){if(best[2]===null)pmark.setAttribute('visibility','hidden');else{pmark.setAttribute('cx',best[2]);
        pmark.setAttribute('cy',best[3]);pmark.setAttribute('visibility','visible')}}return best}
        svg.addEventListener('pointerleave',function(){if(tip)tip.style.display='none'});
        fit()})();
        """
}

extension MapScript {
    /// The served day page's script: the map's, and marking a record where the map is tapped (on
    /// the track: at the track point and its time); the place is the map's projection undone.
    public static let webDay =
        scheme + js + """

            (function(){var svg=document.getElementById('map'),form=document.getElementById('mark');if(!svg||!form)return;
            var p=(svg.getAttribute('data-projection')||'').split(' ').map(Number),pin=document.getElementById('markpin');
            svg.addEventListener('maptap',function(e){var x=e.detail.x,y=e.detail.y,b=e.detail.point;if(b){x=b[0];y=b[1]}
            var lon=(x-p[0])/p[1]*180/Math.PI,lat=Math.atan(Math.sinh((p[2]-y)/p[1]))*180/Math.PI;
            form.elements.lat.value=lat.toFixed(6);form.elements.lon.value=lon.toFixed(6);
            var t=b&&typeof b[4]==='string'?b[4].match(/\\b(\\d\\d:\\d\\d)\\b/):null;if(t)form.elements.time.value=t[1];
            document.getElementById('markplace').textContent=lat.toFixed(5)+', '+lon.toFixed(5);form.hidden=false;
            var stay=document.getElementById('addstay');if(stay){stay.elements.lat.value=lat.toFixed(6);
            stay.elements.lon.value=lon.toFixed(6);stay.hidden=false}
            if(pin){pin.setAttribute('cx',x);pin.setAttribute('cy',y);pin.setAttribute('visibility','visible')}
            form.scrollIntoView({block:'nearest'})})})();
            (function(){var svg=document.getElementById('map'),panel=document.getElementById('panel'),
            grip=document.getElementById('grip');if(!svg||!panel)return;
            if(grip)grip.addEventListener('click',function(){var open=panel.classList.toggle('open');
            grip.setAttribute('aria-expanded',open?'true':'false')});
            var items=panel.querySelectorAll('.story li[data-box]');
            function pick(li){items.forEach(function(o){o.classList.toggle('on',o===li)});
            svg.querySelectorAll('g.focus').forEach(function(g){g.setAttribute('visibility',
            g.getAttribute('data-for')===li.id?'visible':'hidden')});
            svg.dispatchEvent(new CustomEvent('mapfit',{detail:li.getAttribute('data-box').split(' ').map(Number)}))}
            items.forEach(function(li){li.addEventListener('click',function(e){
            if(e.target.closest('details,a,form'))return;pick(li)});
            li.addEventListener('keydown',function(e){if(e.target===li&&(e.key==='Enter'||e.key===' ')){
            e.preventDefault();pick(li)}})})})();
            """
}

extension MapScript {
    /// The overlay's script: the map's, and picking a day (a row or its route) to highlight it
    /// (the page's fragment names the day); again to show all.
    public static let overlay =
        """
        (function(){var map=document.getElementById('map'),rows=document.querySelectorAll('tr.pick');
        function show(d){document.querySelectorAll('.on').forEach(function(n){n.classList.remove('on')});
        var g=d?document.getElementById('day-'+d):null;if(!g){map.classList.remove('dim');return}
        map.classList.add('dim');g.classList.add('on');
        rows.forEach(function(r){if(r.getAttribute('data-day')===d)r.classList.add('on')})}
        rows.forEach(function(row){row.addEventListener('click',function(e){
        if(e.target.tagName==='A')return;var d=row.getAttribute('data-day');
        location.hash=location.hash==='#'+d?'':d})});
        window.addEventListener('hashchange',function(){show(location.hash.slice(1))});
        show(location.hash.slice(1))})();

        """ + scheme + js

    /// A served page takes the reader's colour scheme (a report file keeps the theme it was made with).
    static let scheme = """
        if(window.matchMedia&&matchMedia('(prefers-color-scheme: dark)').matches){document.body.classList.remove('light');
        document.body.classList.add('dark')}

        """
}
