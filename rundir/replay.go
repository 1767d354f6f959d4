package rundir

// The replay controls of a page's trajectories (a run's page and an evaluation's
// report.html): play, pause, speed, a timeline to seek any step, and a stage that shows the
// step's set-of-mark screenshot beside what the model was told (the screen as it read it)
// and answered (reflection, sub-goal, thought, actions, questions and answers). For an
// evaluation, a filter by outcome (passed, failed, false success, refused). Plain script in
// the page itself: no framework, no network, works from a file.
//
// The page's address drives it too, for a person's bookmark and for tests:
// #seek=ANCHOR@N shows step N of the task section ANCHOR, #filter=OUTCOME keeps the tasks
// of one outcome, #play=ANCHOR plays (with &speed=X).
//
// The CJK redraw (cjkredraw) re-parses the body once the embedded font has loaded: the
// script keeps its state in attributes and listens on the document, so it survives.

// replayHTML is the "replaybar" template: a task section's controls and stage. It reads
// Anchor and Trajectory.
const replayHTML = `{{if .Trajectory}}<div class="replay" data-task="{{.Anchor}}" data-speed="1" data-playing="0">
<div class="bar"><button type="button" data-act="prev" title="previous step" aria-label="previous step">&#9198;</button><button type="button" data-act="play" title="play" aria-label="play">&#9654;</button><button type="button" data-act="next" title="next step" aria-label="next step">&#9197;</button>
<label>speed <select data-act="speed" aria-label="speed"><option value="0.5">0.5×</option><option value="1" selected>1×</option><option value="2">2×</option><option value="4">4×</option></select></label>
<input type="range" class="timeline" data-act="seek" min="1" max="{{len .Trajectory}}" value="1" step="1" aria-label="step on the timeline">
<span class="pos">1 / {{len .Trajectory}}</span></div>
<div class="stage" data-step="0"><img class="shot" alt="" hidden><div class="said" dir="auto"></div></div>
</div>{{end}}`

// replayScript is the "replayjs" template: the one script of a page with replay bars.
const replayScript = `<script>
(function(){
var tick=1500; // ms per step at 1×
function bars(){return document.querySelectorAll('.replay')}
function bar(id){var all=bars();for(var i=0;i<all.length;i++){if(all[i].getAttribute('data-task')===id)return all[i]}return null}
function steps(rp){return rp.parentNode.querySelectorAll('.steps > .step')}
function seek(rp,n){
  var ss=steps(rp);if(!ss.length)return;
  n=Math.max(1,Math.min(ss.length,n|0));
  var s=ss[n-1],stage=rp.querySelector('.stage'),shot=stage.querySelector('img.shot'),said=stage.querySelector('.said');
  var img=s.querySelector('img');
  if(img){shot.setAttribute('src',img.getAttribute('src'));shot.setAttribute('alt',img.getAttribute('alt')||'');shot.hidden=false}
  else{shot.removeAttribute('src');shot.hidden=true}
  while(said.firstChild)said.removeChild(said.firstChild);
  for(var c=s.firstChild;c;c=c.nextSibling){if(c.nodeName==='A'||c.nodeName==='IMG')continue;said.appendChild(c.cloneNode(true))}
  stage.setAttribute('data-step',String(n));
  var r=rp.querySelector('.timeline');r.value=String(n);r.setAttribute('value',String(n));
  rp.querySelector('.pos').textContent=n+' / '+ss.length;
  for(var i=0;i<ss.length;i++){ss[i].classList.toggle('current',i===n-1)}
}
function at(rp){return +rp.querySelector('.stage').getAttribute('data-step')||1}
function setPlaying(rp,on){
  rp.setAttribute('data-playing',on?'1':'0');
  var b=rp.querySelector('[data-act="play"]');b.innerHTML=on?'&#9208;':'&#9654;';b.title=on?'pause':'play';b.setAttribute('aria-label',b.title);
  if(on){if(at(rp)>=steps(rp).length)seek(rp,1);later(rp.getAttribute('data-task'))}
}
function later(id){var rp=bar(id);if(!rp)return;setTimeout(function(){step(id)},tick/(+rp.getAttribute('data-speed')||1))}
function step(id){
  var rp=bar(id);if(!rp||rp.getAttribute('data-playing')!=='1')return;
  var n=at(rp);if(n>=steps(rp).length){setPlaying(rp,false);return}
  seek(rp,n+1);later(id);
}
function filter(v){
  var all=document.querySelectorAll('[data-outcome]');
  for(var i=0;i<all.length;i++){var o=' '+all[i].getAttribute('data-outcome')+' ';all[i].hidden=!(v==='all'||o.indexOf(' '+v+' ')>=0)}
  var f=document.querySelectorAll('#filter input[name="outcome"]');
  for(var j=0;j<f.length;j++){f[j].checked=f[j].value===v;if(f[j].checked)f[j].setAttribute('checked','');else f[j].removeAttribute('checked')}
  var box=document.getElementById('filter');if(box)box.setAttribute('data-shown',v);
}
document.addEventListener('click',function(e){
  var b=e.target.closest&&e.target.closest('button[data-act]');if(!b)return;
  var rp=b.closest('.replay');if(!rp)return;
  var a=b.getAttribute('data-act');
  if(a==='prev'){setPlaying(rp,false);seek(rp,at(rp)-1)}
  if(a==='next'){setPlaying(rp,false);seek(rp,at(rp)+1)}
  if(a==='play'){setPlaying(rp,rp.getAttribute('data-playing')!=='1')}
});
document.addEventListener('input',function(e){
  var t=e.target;if(!t.classList||!t.classList.contains('timeline'))return;
  var rp=t.closest('.replay');setPlaying(rp,false);seek(rp,+t.value);
});
document.addEventListener('change',function(e){
  var t=e.target;
  if(t.getAttribute('data-act')==='speed'){var rp=t.closest('.replay');rp.setAttribute('data-speed',t.value);
    var os=t.querySelectorAll('option');for(var i=0;i<os.length;i++){if(os[i].value===t.value)os[i].setAttribute('selected','');else os[i].removeAttribute('selected')}}
  if(t.name==='outcome')filter(t.value);
});
function init(){
  var all=bars();for(var i=0;i<all.length;i++){if(all[i].querySelector('.stage').getAttribute('data-step')==='0')seek(all[i],1)}
  var h=location.hash.replace(/^#/,'').split('&'),speed=0,play='';
  for(var k=0;k<h.length;k++){
    var kv=h[k].split('='),key=kv[0],val=decodeURIComponent(kv.slice(1).join('='));
    if(key==='seek'){var at2=val.lastIndexOf('@');var rp=bar(val.slice(0,at2));if(rp){var d=rp.closest('details');if(d)d.open=true;seek(rp,+val.slice(at2+1))}}
    if(key==='filter')filter(val);
    if(key==='speed')speed=+val;
    if(key==='play')play=val;
  }
  if(play){var p=bar(play);if(p){if(speed>0){p.setAttribute('data-speed',String(speed))}var d2=p.closest('details');if(d2)d2.open=true;setPlaying(p,true)}}
}
if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',init);else init();
})();
</script>`

// replayCSS is the controls' look, added to the page style.
const replayCSS = `
.replay{margin:10px 0;border:1px solid #d8dee4;border-radius:6px;background:#fff;padding:8px}
.replay .bar{display:flex;align-items:center;gap:8px;flex-wrap:wrap}
.replay button{font-size:16px;min-width:36px;padding:2px 8px;border:1px solid #ccd3da;border-radius:4px;background:#f6f8fa;cursor:pointer}
.replay .timeline{flex:1;min-width:160px}.replay .pos{font-variant-numeric:tabular-nums;min-width:64px}
.stage{display:flex;gap:14px;margin-top:8px;align-items:flex-start}
.stage img.shot{width:300px;border:1px solid #ccd3da;flex:none}
.stage .said{flex:1;min-width:0}.stage .said pre,.step pre{white-space:pre-wrap;font-size:12px;max-height:320px;overflow:auto;background:#f6f8fa;padding:6px}
.step.current{outline:3px solid #0969da}
#filter{margin:8px 0}#filter label{margin-right:12px}
[hidden]{display:none!important}
`
