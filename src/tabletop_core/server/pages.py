"""The lobby and match pages: plain HTML with inline script, no external files."""

from __future__ import annotations

__all__ = ["LOBBY", "MATCH"]

# An empty icon: else the browser asks for /favicon.ico and logs the 404 as a console error.
_STYLE = """<link rel="icon" href="data:,">
<style>body{font-family:sans-serif;max-width:1000px;margin:1em auto}button{margin:2px}
#log{max-height:20em;overflow:auto;font-size:90%}.err{color:#a00}</style>"""

LOBBY = (
    """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>tabletop: lobby</title>"""
    + _STYLE
    + """</head><body><h1>New match</h1>
<label>Game <select id="game"></select></label>
<label>Options (JSON) <input id="options" value="{}"></label>
<p id="seat-note" class="err"></p>
<div id="seats"></div>
<button id="create" disabled>Create match</button>
<p id="out"></p>
<script>
// The seats come from the server: the game's own player count for the chosen game and options.
const seatsDiv=document.getElementById('seats'),gameSel=document.getElementById('game');
const optionsIn=document.getElementById('options'),createBtn=document.getElementById('create');
const KINDS=['human','open','bot:random','bot:heuristic'];
let asked=0,timer=null;
async function refreshSeats(){
 const k=++asked,game=gameSel.value,text=optionsIn.value,note=document.getElementById('seat-note');
 seatsDiv.dataset.shows='';createBtn.disabled=true;
 const done=(msg)=>{if(k!==asked)return false;note.textContent=msg;return true;};
 let options;try{options=JSON.parse(text.trim()||'{}')}catch(e){done('options: not JSON');return}
 let r,j;try{r=await fetch('/api/games/'+encodeURIComponent(game)+'/seats?options='+
  encodeURIComponent(JSON.stringify(options)));j=await r.json();}
 catch(e){done('the server did not answer');return}
 if(!r.ok){done(j.error);return}
 if(!done(''))return;
 const kept=[...document.querySelectorAll('.seat')].map(s=>s.value);seatsDiv.innerHTML='';
 for(const s of j.seats){const d=document.createElement('div');d.className='seat-row';
  const l=document.createElement('label');l.textContent='Seat '+s.seat+' ('+s.name+') ';
  const sel=document.createElement('select');sel.className='seat';sel.dataset.name=s.name;
  for(const kind of KINDS){const o=document.createElement('option');o.textContent=kind;sel.appendChild(o);}
  sel.value=kept[s.seat]||'human';l.appendChild(sel);d.appendChild(l);seatsDiv.appendChild(d);}
 // For scripts and tests: the game and options text the seats shown belong to.
 seatsDiv.dataset.shows=game+'\\n'+text;createBtn.disabled=false;}
gameSel.onchange=refreshSeats;
optionsIn.oninput=()=>{clearTimeout(timer);seatsDiv.dataset.shows='';createBtn.disabled=true;
 timer=setTimeout(refreshSeats,250);};
fetch('/api/games').then(r=>r.json()).then(j=>{
 for(const n of j.games){const o=document.createElement('option');o.value=o.textContent=n;gameSel.appendChild(o);}
 refreshSeats();});
document.getElementById('create').onclick=async()=>{
 const out=document.getElementById('out');out.textContent='';
 let options;try{options=JSON.parse(document.getElementById('options').value)}
 catch(e){out.textContent='options: not JSON';return}
 const seats=[...document.querySelectorAll('.seat')].map(s=>s.value);
 const r=await fetch('/api/matches',{method:'POST',headers:{'content-type':'application/json'},
  body:JSON.stringify({game:document.getElementById('game').value,options,seats})});
 const j=await r.json();if(!r.ok){out.className='err';out.textContent=j.error;return}
 out.className='';const hot=j.seats.filter(s=>s.token).map(s=>s.token).join(',');
 out.innerHTML='';for(const s of j.seats){if(s.link){const a=document.createElement('a');a.href=s.link;
  a.className='invite';a.dataset.seat=s.seat;a.textContent='seat '+s.seat+' ('+s.kind+') invite link';
  out.appendChild(a);
  out.appendChild(document.createElement('br'));}}
 const w=document.createElement('a');w.id='watch';w.href=j.watch;w.textContent='watch';out.appendChild(w);
 out.appendChild(document.createElement('br'));
 const h=document.createElement('a');h.id='hotseat';h.href=j.watch+'#hotseat='+hot;
 h.textContent='hot-seat (all seats here)';
 out.appendChild(h);};
</script></body></html>"""
)

MATCH = (
    """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>tabletop: match</title>"""
    + _STYLE
    + """</head><body><h1 id="title">Match</h1><p id="status"></p>
<p id="connection" data-state="connecting">connecting...</p><div id="picture"></div>
<div id="moves"></div><p id="error" class="err"></p><h2>Log</h2><ol id="log"></ol>
<script>
const id=location.pathname.split('/').pop();
const frag=new URLSearchParams(location.hash.slice(1));
const tokens=frag.get('hotseat')?frag.get('hotseat').split(','):(frag.get('token')?[frag.get('token')]:['']);
const sockets={};let views={};let delay=500;
function isOpen(token){return !!sockets[token]&&sockets[token].readyState===WebSocket.OPEN;}
// While any of the page's sockets is down, say so and offer no move: a move needs an open socket.
function connection(){const c=document.getElementById('connection');
 const down=tokens.filter(t=>!isOpen(t)).length;c.dataset.state=down?'reconnecting':'open';
 c.textContent=down?'connection lost; reconnecting...':'';
 for(const b of document.querySelectorAll('#moves button.move'))b.disabled=!!down;}
function connect(token){
 const ws=new WebSocket((location.protocol==='https:'?'wss://':'ws://')+location.host+'/ws/matches/'+id+
  (token?'?token='+encodeURIComponent(token):''));
 sockets[token]=ws;
 ws.onopen=()=>{delay=500;connection();};
 ws.onmessage=e=>{const m=JSON.parse(e.data);
  if(m.type==='view'){views[token]=m.view;show();}
  else if(m.type==='error'){document.getElementById('error').textContent=m.error;}};
 ws.onclose=()=>{if(sockets[token]!==ws)return;connection();
  setTimeout(()=>connect(token),delay);delay=Math.min(delay*2,8000);};
}
function current(){ // hot-seat: the page shows the seat to move
 const vs=tokens.map(t=>[t,views[t]]).filter(x=>x[1]);
 return vs.find(x=>x[1].legal.length)||vs[0];}
function show(){const c=current();if(!c)return;const [token,v]=c;
 document.getElementById('title').textContent=v.game+' - '+(v.seat===null?'spectator':v.seats[v.seat].name);
 let st='move '+v.move+(v.to_move!==null?', '+v.seats[v.to_move].name+' to move':'');
 if(v.legal.length){st+=' (your move)';}
 if(v.finished){st='finished; returns '+JSON.stringify(v.returns);}
 const status=document.getElementById('status');status.textContent=st;
 // For scripts and tests: the view shown (its move number, whose move, this page's seat, whether it is over).
 status.dataset.move=v.move;status.dataset.toMove=v.to_move===null?'':v.to_move;
 status.dataset.seat=v.seat===null?'':v.seat;status.dataset.finished=v.finished;
 document.getElementById('picture').innerHTML=v.picture;
 const mv=document.getElementById('moves');mv.innerHTML='';
 for(const a of v.legal){const b=document.createElement('button');b.className='move';b.dataset.action=a.id;
  b.textContent=a.text;
  b.onclick=()=>{const err=document.getElementById('error');
   if(!isOpen(token)){err.textContent='not connected: the move was not sent; reconnecting...';connection();return;}
   err.textContent='';sockets[token].send(JSON.stringify({move:v.move,action:a.id}));};mv.appendChild(b);}
 if(v.finished){const a=document.createElement('a');a.href='/api/matches/'+id+'/record';a.id='record';
  a.textContent='the match record (JSON)';mv.appendChild(a);}
 const log=document.getElementById('log');log.innerHTML='';
 for(const lines of v.log){const li=document.createElement('li');li.textContent=lines.join(' ');log.appendChild(li);}
 connection();
}
for(const t of tokens)connect(t);
</script></body></html>"""
)
