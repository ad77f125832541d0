// Domestique's race pages: times in the viewer's zone, the replay slider, and live updates.
// Plain JavaScript, no library; the page reads fine without it.
"use strict";

function language() { return document.documentElement.lang || "en"; }

function setupRecap(root) {
  // the recap's animation (about a megabyte) is fetched only when its section is opened
  var recap = root.querySelector ? root.querySelector("#recap") : null;
  if (!recap || recap.getAttribute("data-ready")) { return; }
  recap.setAttribute("data-ready", "yes");
  recap.addEventListener("toggle", function () {
    if (!recap.open || recap.querySelector("img")) { return; }
    var img = document.createElement("img");
    img.className = "board";
    img.alt = recap.getAttribute("data-alt") || "";
    img.src = recap.getAttribute("data-src");
    recap.appendChild(img);
  });
}

function localTimes(root) {
  // the server wrote each time in the page's language in UTC; here it is the viewer's zone
  root.querySelectorAll("time[datetime]").forEach(function (el) {
    var moment = new Date(el.getAttribute("datetime"));
    if (!isNaN(moment)) {
      el.textContent = moment.toLocaleString(language(), {
        weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"
      });
      el.title = document.body.getAttribute("data-your-time") || "";
    }
  });
}

function setupReplay() {
  var section = document.getElementById("replay");
  if (!section) { return; }
  var base = section.getAttribute("data-base");
  var slider = document.getElementById("replay-turn");
  var board = document.getElementById("replay-board");
  var shown = document.getElementById("replay-shown");
  var moves = document.getElementById("replay-moves");
  function show(turn) {
    slider.value = String(turn);
    shown.textContent = String(turn);
    var phone = document.getElementById("replay-phone");  // a phone's cut board, chosen before the image
    if (phone) { phone.srcset = base + "/phone/turn/" + turn + ".png?lang=" + language(); }
    board.src = base + "/turn/" + turn + ".png?lang=" + language();
    board.alt = (section.getAttribute("data-alt-word") || "#").replace("#", String(turn));
    section.querySelectorAll("a[data-turn]").forEach(function (link) {
      if (link.getAttribute("data-turn") === String(turn)) { link.setAttribute("aria-current", "true"); }
      else { link.removeAttribute("aria-current"); }
    });
    var told = document.getElementById("turn-" + turn);
    var nothing = section.getAttribute("data-nothing") || "#";
    moves.textContent = told ? told.textContent : nothing.replace("#", String(turn));
  }
  slider.addEventListener("input", function () { show(Number(slider.value)); remember(Number(slider.value)); });
  function remember(turn) {
    // the address names the turn shown: a permalink that opens there
    history.replaceState(null, "", "?lang=" + language() + "&turn=" + turn + "#replay");
  }
  section.querySelector(".turn-links").addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[data-turn]") : null;
    if (!link) { return; }
    event.preventDefault();
    show(Number(link.getAttribute("data-turn")));
    remember(Number(link.getAttribute("data-turn")));
  });
  document.getElementById("replay-back").addEventListener("click", function () {
    show(Math.max(Number(slider.min), Number(slider.value) - 1));
    remember(Number(slider.value));
  });
  document.getElementById("replay-next").addEventListener("click", function () {
    show(Math.min(Number(slider.max), Number(slider.value) + 1));
    remember(Number(slider.value));
  });
}

function grow(last) {
  // new turns join the slider's range and its links
  var slider = document.getElementById("replay-turn");
  if (!slider || last <= Number(slider.max)) { return; }
  var nav = document.querySelector("#replay .turn-links");
  for (var turn = Number(slider.max) + 1; turn <= last; turn++) {
    var link = document.createElement("a");
    link.href = "?lang=" + language() + "&turn=" + turn + "#replay";
    link.textContent = String(turn);
    link.setAttribute("data-turn", String(turn));
    nav.appendChild(document.createTextNode(" "));
    nav.appendChild(link);
  }
  slider.max = String(last);
  document.getElementById("replay-last").textContent = String(last);
}

function swap(data) {
  // the new board is loaded before anything is replaced: no blank moment, no flicker
  var holder = document.createElement("div");
  holder.innerHTML = data.live;
  var img = holder.querySelector("img");
  function put() {
    // the part keeps at least its height while it changes: what is below does not jump up
    var live = document.getElementById("live");
    live.style.minHeight = live.offsetHeight + "px";
    document.getElementById("live").replaceChildren.apply(document.getElementById("live"), Array.from(holder.childNodes));
    var words = document.createElement("div");
    words.innerHTML = data.words;
    var section = document.getElementById("words");
    var heading = section.querySelector("h2");
    section.replaceChildren(heading);
    Array.from(words.childNodes).forEach(function (node) { section.appendChild(node); });
    grow(data.last);
    if (data.recap && !document.getElementById("recap")) {
      // the race finished while watched: its recap, without a reload
      var folded = document.createElement("div");
      folded.innerHTML = data.recap;
      document.querySelector("main").appendChild(folded.firstChild);
      setupRecap(document);
    }
    localTimes(document);
    setupSortable(document.getElementById("live"));
    document.body.setAttribute("data-version", String(data.version));
  }
  if (!img) { put(); return; }
  var preload = new Image();
  preload.onload = put;
  preload.onerror = put;
  preload.src = shownSource(holder, img);
}

function shownSource(holder, img) {
  // the picture the browser will show: a phone's cut board where its media query holds
  var source = holder.querySelector("picture source");
  if (source && window.matchMedia(source.getAttribute("media")).matches) {
    return source.getAttribute("srcset");
  }
  return img.getAttribute("src");
}

function setupLive() {
  var url = document.body.getAttribute("data-live");
  if (!url) { return; }
  var status = document.body.getAttribute("data-status");
  function poll() {
    var version = document.body.getAttribute("data-version");
    fetch(url + "?v=" + version + "&lang=" + language(), { cache: "no-store" }).then(function (response) {
      if (response.status === 204) { return null; }
      if (!response.ok) { return null; }
      return response.json();
    }).then(function (data) {
      if (data) {
        if (status === "lobby" && data.status !== "lobby") { location.reload(); return; }
        status = data.status;
        swap(data);
        if (data.status !== "lobby" && data.status !== "running") { return; }
      }
      setTimeout(poll, 2000);
    }).catch(function () { setTimeout(poll, 5000); });
  }
  setTimeout(poll, 2000);
}

function setupLeagueLive() {
  // a league page asks every ten seconds whether a stage started, finished or moved
  var url = document.body.getAttribute("data-league-live");
  if (!url) { return; }
  function poll() {
    var version = document.body.getAttribute("data-version");
    fetch(url + "?v=" + version + "&lang=" + language(), { cache: "no-store" }).then(function (response) {
      return response.status === 200 ? response.json() : null;
    }).then(function (data) {
      if (data) {
        var holder = document.createElement("div");
        holder.innerHTML = data.main;
        document.getElementById("league").replaceWith(holder.firstChild);
        localTimes(document);
        document.body.setAttribute("data-version", data.version);
      }
      setTimeout(poll, 10000);
    }).catch(function () { setTimeout(poll, 20000); });
  }
  setTimeout(poll, 10000);
}

function sortBy(table, th, column) {
  // numbers by their value (an empty one last), ascending at the first click unless more is better
  var lowerFirst = th.hasAttribute("data-lower-first") || column === 0;
  var now = th.getAttribute("aria-sort");
  var ascending = now ? now !== "ascending" : lowerFirst;
  Array.from(table.querySelectorAll("th")).forEach(function (other) { other.removeAttribute("aria-sort"); });
  th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  var body = table.tBodies[0];
  var rows = Array.from(body.rows);
  function key(row) {
    var cell = row.cells[column];
    var value = cell.getAttribute("data-v");
    return value === null ? cell.textContent : value;
  }
  var numeric = th.getAttribute("data-kind") === "number";
  rows.sort(function (a, b) {
    var x = key(a), y = key(b);
    if (x === "" || y === "") { return (x === "") - (y === ""); }
    var order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
    return ascending ? order : -order;
  });
  rows.forEach(function (row) { body.appendChild(row); });
}

function setupSortable(root) {
  // each heading becomes a button that sorts the table by its column (a plain table without the script)
  Array.from(root.querySelectorAll("table.sortable")).forEach(function (table) {
    Array.from(table.tHead.rows[0].cells).forEach(function (th, column) {
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = th.textContent;
      th.replaceChildren(button);
      button.addEventListener("click", function () { sortBy(table, th, column); });
    });
  });
}

document.addEventListener("DOMContentLoaded", function () {
  localTimes(document);
  setupSortable(document);
  setupReplay();
  setupRecap(document);
  setupLive();
  setupLeagueLive();
});
