// winnow HTML report: passages linked across panes; the pairs table sorted, filtered
// and marked; marks and the table's view kept in the browser (localStorage, per report).
// Reads only the report's own data-* attributes and form fields; never inserts markup
// (no innerHTML): names reach the page as text nodes or form values only.
(function () {
  "use strict";
  var NUMBER = /^[0-9]+$/;
  var MARKS = ["reviewed", "cleared", "suspicious"];
  var REPORT = document.body.getAttribute("data-report") || "";

  // ---------------------------------------------------------------- storage
  function load(name) {
    try {
      var value = JSON.parse(window.localStorage.getItem("winnow:" + REPORT + ":" + name));
      return value && typeof value === "object" ? value : {};
    } catch (e) { return {}; }
  }
  function store(name, value) {
    try { window.localStorage.setItem("winnow:" + REPORT + ":" + name, JSON.stringify(value)); }
    catch (e) { /* storage full or disabled: marks last until the page closes */ }
  }
  var marks = load("marks");

  function markOf(rank) {
    var m = marks[rank];
    if (!m || typeof m !== "object") { return { m: "", n: "" }; }
    return { m: MARKS.indexOf(m.m) >= 0 ? m.m : "", n: typeof m.n === "string" ? m.n : "" };
  }

  // ---------------------------------------------------------------- passages
  function passageOf(el) {
    var first = (el.getAttribute("data-p") || "").split(" ")[0];
    return NUMBER.test(first) ? first : null;
  }
  function blocksOf(root, k) { return root.querySelectorAll('.blk[data-p~="' + k + '"]'); }
  function highlight(pair, k) {
    var old = pair.querySelectorAll(".blk.on");
    for (var i = 0; i < old.length; i++) { old[i].classList.remove("on"); }
    var now = blocksOf(pair, k);
    for (var j = 0; j < now.length; j++) { now[j].classList.add("on"); }
  }
  // Scroll `pane` (and only it) so that `el` sits a quarter down its viewport.
  function reveal(pane, el) {
    if (!pane || !el) { return; }
    var head = pane.querySelector(".fname");
    var offset = head ? head.offsetHeight : 0;
    var delta = el.getBoundingClientRect().top - pane.getBoundingClientRect().top;
    pane.scrollTop = Math.max(0, pane.scrollTop + delta - offset - pane.clientHeight / 4);
  }
  function jump(pair, k, sides) {
    highlight(pair, k);
    for (var i = 0; i < sides.length; i++) {
      var pane = pair.querySelector('.pane[data-side="' + sides[i] + '"]');
      if (pane) { reveal(pane, blocksOf(pane, k)[0]); }
    }
  }
  function activatePassage(target) {
    var pair = target.closest(".pair");
    if (!pair) { return false; }
    var blk = target.closest(".blk[data-p]");
    if (blk) {
      var k = passageOf(blk);
      var pane = blk.closest(".pane");
      if (k === null || !pane) { return false; }
      jump(pair, k, [pane.getAttribute("data-side") === "a" ? "b" : "a"]);
      return true;
    }
    var row = target.closest("[data-jump]");
    if (row) {
      var n = row.getAttribute("data-jump");
      if (NUMBER.test(n)) { jump(pair, n, ["a", "b"]); return true; }
    }
    return false;
  }

  // ---------------------------------------------------------------- marks
  function showMark(rank) {
    var m = markOf(rank);
    var holders = document.querySelectorAll('[data-rank="' + rank + '"]');
    for (var i = 0; i < holders.length; i++) {
      var h = holders[i];
      var select = h.querySelector("select.mk");
      var note = h.querySelector("input.nt");
      if (select && select.value !== m.m) { select.value = m.m; }
      if (note && note.value !== m.n && document.activeElement !== note) { note.value = m.n; }
      for (var j = 0; j < MARKS.length; j++) { h.classList.toggle("m-" + MARKS[j], m.m === MARKS[j]); }
    }
  }
  function saveMark(holder) {
    var rank = holder.getAttribute("data-rank");
    if (!NUMBER.test(rank || "")) { return; }
    var select = holder.querySelector("select.mk");
    var note = holder.querySelector("input.nt");
    var m = select && MARKS.indexOf(select.value) >= 0 ? select.value : "";
    var n = note ? note.value : "";
    marks = load("marks");  // another tab of this report may have marked other pairs
    if (m || n) { marks[rank] = { m: m, n: n, t: new Date().toISOString() }; }
    else { delete marks[rank]; }
    store("marks", marks);
    showMark(rank);
    if (table) { apply(false); }
  }
  function showAllMarks() {
    var holders = document.querySelectorAll("[data-rank]");
    var seen = {};
    for (var i = 0; i < holders.length; i++) {
      var rank = holders[i].getAttribute("data-rank");
      if (!seen[rank]) { seen[rank] = true; showMark(rank); }
    }
  }

  // A CSV cell: quoted, and text a spreadsheet would run as a formula made inert.
  function csvCell(value) {
    var text = String(value);
    if (/^[=+\-@\t\r]/.test(text)) { text = "'" + text; }
    return '"' + text.replace(/"/g, '""') + '"';
  }
  function exportMarks() {
    var rows = table.tBodies[0].rows;
    var ordered = [];
    for (var i = 0; i < rows.length; i++) { ordered.push(rows[i]); }
    ordered.sort(function (x, y) { return rankOf(x) - rankOf(y); });
    var lines = [["rank", "file_a", "file_b", "similarity", "mark", "note", "marked_at"].join(",")];
    for (var j = 0; j < ordered.length; j++) {
      var row = ordered[j];
      var rank = String(rankOf(row));
      var stored = marks[rank] || {};
      var m = markOf(rank);
      lines.push([rank, row.getAttribute("data-a"), row.getAttribute("data-b"),
                  row.getAttribute("data-sim"), m.m, m.n,
                  typeof stored.t === "string" ? stored.t : ""].map(csvCell).join(","));
    }
    var blob = new Blob([lines.join("\r\n") + "\r\n"], { type: "text/csv;charset=utf-8" });
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "winnow-marks-" + REPORT + ".csv";
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 10000);
  }

  // ---------------------------------------------------------------- the pairs table
  var table = document.querySelector("table.pairs");
  var field = function (id) { return document.getElementById(id); };
  var view = load("view");

  function rankOf(row) { return Number(row.getAttribute("data-rank")); }
  function cellValue(row, col, kind) {
    if (kind === "mark") {
      var m = markOf(row.getAttribute("data-rank")).m;
      return m ? MARKS.indexOf(m) + 1 : 0;
    }
    var cell = row.cells[col];
    var v = cell.hasAttribute("data-v") ? cell.getAttribute("data-v") : cell.textContent;
    return kind === "num" ? Number(v) : v.toLowerCase();
  }
  function sortBy(col, descending) {
    var heads = table.tHead.rows[0].cells;
    if (!(col >= 0 && col < heads.length)) { col = 0; descending = false; }
    var kind = heads[col].getAttribute("data-sort");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (x, y) {
      var a = cellValue(x, col, kind), b = cellValue(y, col, kind);
      var order = a < b ? -1 : a > b ? 1 : 0;
      return (descending ? -order : order) || rankOf(x) - rankOf(y);
    });
    for (var i = 0; i < rows.length; i++) { body.appendChild(rows[i]); }
    for (var j = 0; j < heads.length; j++) {
      if (j === col) { heads[j].setAttribute("aria-sort", descending ? "descending" : "ascending"); }
      else { heads[j].removeAttribute("aria-sort"); }
    }
    view.sort = col;
    view.desc = descending;
  }
  function filterOf() {
    return { name: field("f-name").value, min: field("f-min").value,
             cluster: field("f-cluster").value, mark: field("f-mark").value };
  }
  // `"name"`, or several `"a" "b"` (a graph node's identical submissions): the exact
  // names, or null when the text is not only quoted names.
  var QUOTED = /"(?:[^"\\]|\\.)*"/g;
  function exactNames(text) {
    if (!/^\s*("(?:[^"\\]|\\.)*"\s*)+$/.test(text)) { return null; }
    return (text.match(QUOTED) || []).map(function (q) {
      try { var v = JSON.parse(q); return typeof v === "string" ? v : q.slice(1, -1); }
      catch (e) { return q.slice(1, -1); }
    });
  }
  function matches(row, f, exact) {
    var wanted = f.name.trim().toLowerCase();
    if (wanted) {
      var a = (row.getAttribute("data-a") || "").toLowerCase();
      var b = (row.getAttribute("data-b") || "").toLowerCase();
      if (exact) {
        if (exact.indexOf(a) < 0 && exact.indexOf(b) < 0) { return false; }
      } else if (a.indexOf(wanted) < 0 && b.indexOf(wanted) < 0) { return false; }
    }
    var min = Number(f.min);
    if (f.min !== "" && isFinite(min) && Number(row.getAttribute("data-sim")) * 100 < min - 1e-9) {
      return false;
    }
    var cluster = row.getAttribute("data-cluster");
    if (f.cluster === "none" ? cluster !== "" : f.cluster !== "" && cluster !== f.cluster) {
      return false;
    }
    var m = markOf(row.getAttribute("data-rank")).m;
    return !(f.mark === "none" ? m !== "" : f.mark !== "" && m !== f.mark);
  }
  function apply(remember) {
    var f = filterOf();
    var exact = exactNames(f.name.trim().toLowerCase());  // parsed once, not per row
    var rows = table.tBodies[0].rows;
    var shown = 0;
    for (var i = 0; i < rows.length; i++) {
      var ok = matches(rows[i], f, exact);
      rows[i].hidden = !ok;
      if (ok) { shown++; }
    }
    field("f-count").textContent = shown + " of " + rows.length + " pairs";
    field("f-none").hidden = shown > 0;
    if (remember !== false) { view.filter = f; }
    rememberOrder();
  }
  // The pairs with a page, in the table's current order and filter: what a pair page's
  // "previous" and "next" follow.
  function rememberOrder() {
    var rows = table.tBodies[0].rows;
    var order = [];
    for (var i = 0; i < rows.length; i++) {
      if (!rows[i].hidden && rows[i].querySelector("td.name a")) { order.push(rankOf(rows[i])); }
    }
    view.order = order;
    store("view", view);
    if (SINGLE) { linkNeighbours(); }
  }
  function setFilter(f) {
    field("f-name").value = typeof f.name === "string" ? f.name : "";
    field("f-min").value = typeof f.min === "string" ? f.min : "0";
    var options = { "f-cluster": f.cluster, "f-mark": f.mark };
    for (var id in options) {
      var el = field(id);
      el.value = typeof options[id] === "string" ? options[id] : "";
      if (el.selectedIndex < 0) { el.value = ""; }
    }
    apply();
  }
  function showPairsOf(f) {
    setFilter({ name: f.name || "", min: "0", cluster: f.cluster || "", mark: "" });
    field("pairs").scrollIntoView();
  }
  // The row named by the URL (#row-N, from a pair's "all pairs" link): shown and centred.
  function revealRow() {
    var m = /^#row-([0-9]+)$/.exec(window.location.hash);
    var row = m && document.getElementById("row-" + m[1]);
    if (!row) { return; }
    if (row.hidden) { setFilter({}); }
    row.scrollIntoView({ block: "center" });
  }
  function setUpTable() {
    var heads = table.tHead.rows[0].cells;
    for (var i = 0; i < heads.length; i++) {
      heads[i].querySelector("button").addEventListener("click", (function (col) {
        return function () {
          var same = view.sort === col || (view.sort === undefined && col === 0);
          sortBy(col, same ? !view.desc : heads[col].getAttribute("data-sort") !== "text" && col !== 0);
          rememberOrder();
        };
      })(i));
    }
    ["f-name", "f-min", "f-cluster", "f-mark"].forEach(function (id) {
      field(id).addEventListener("input", apply);
      field(id).addEventListener("change", apply);
    });
    field("f-reset").addEventListener("click", function () { setFilter({}); });
    field("export").addEventListener("click", exportMarks);
    if (typeof view.sort === "number") { sortBy(view.sort, !!view.desc); }
    setFilter(view.filter && typeof view.filter === "object" ? view.filter : {});
    revealRow();
    window.addEventListener("hashchange", revealRow);
  }

  // ---------------------------------------------------------------- previous / next
  // Each pair's links follow the table's order and filter when that pair is among the
  // pairs listed there; else (or without a stored order) they follow the ranking.
  var SINGLE = document.body.classList.contains("single");
  function pageOf(rank) { return SINGLE ? "#pair-" + rank : "pair-" + rank + ".html"; }
  function setLink(link, rank) {
    if (!link.hasAttribute("data-rank-href")) {
      link.setAttribute("data-rank-href", link.getAttribute("href") || "");
    }
    var href = rank === null ? link.getAttribute("data-rank-href") : rank ? pageOf(rank) : "";
    if (href) { link.setAttribute("href", href); } else { link.removeAttribute("href"); }
  }
  function linkNeighbours() {
    var order = Array.isArray(view.order) ? view.order : [];
    var navs = document.querySelectorAll(".pairnav");
    for (var i = 0; i < navs.length; i++) {
      var box = navs[i].querySelector(".markbox");
      var rank = Number(box ? box.getAttribute("data-rank") : NaN);
      var at = order.indexOf(rank);
      var follow = at >= 0 && order.every(function (n) { return NUMBER.test(String(n)) && n > 0; });
      var prev = navs[i].querySelector("a.prev"), next = navs[i].querySelector("a.next");
      if (prev) { setLink(prev, follow ? (at > 0 ? order[at - 1] : 0) : null); }
      if (next) { setLink(next, follow ? (at + 1 < order.length ? order[at + 1] : 0) : null); }
      var where = navs[i].querySelector(".where");
      if (where) {
        where.textContent = "pair " + rank + (follow ? " · " + (at + 1) + " of " + order.length +
                                              " in the table's order" : "");
      }
    }
  }


  // ---------------------------------------------------------------- the graph
  // The layout is computed when the report is written; here only zoom (wheel, buttons),
  // pan (drag the background) and drag a node (its links follow).  A press that moves
  // less than a few pixels stays a click: on a node it lists its pairs, on a link it
  // opens the pair.
  function setUpGraph(svg) {
    var home = (svg.getAttribute("data-viewbox") || "").split(" ").map(Number);
    if (home.length !== 4 || !home.every(isFinite) || !(home[2] > 0)) { return; }
    var box = home.slice();
    var ends = {};  // node index -> the line ends that follow it
    Array.prototype.forEach.call(svg.querySelectorAll("[data-a][data-b]"), function (link) {
      var lines = link.querySelectorAll("line");
      [["a", "1"], ["b", "2"]].forEach(function (end) {
        var n = link.getAttribute("data-" + end[0]);
        (ends[n] = ends[n] || []).push({ lines: lines, end: end[1] });
      });
    });
    function show() { svg.setAttribute("viewBox", box.map(function (v) { return v.toFixed(2); }).join(" ")); }
    function scale() { var r = svg.getBoundingClientRect(); return r.width > 0 ? box[2] / r.width : 1; }
    function toGraph(ev) {
      var r = svg.getBoundingClientRect();
      return [box[0] + (ev.clientX - r.left) * scale(), box[1] + (ev.clientY - r.top) * scale()];
    }
    function zoom(factor, at) {
      var width = box[2] / factor;
      if (width < home[2] / 16 || width > home[2] * 2) { return; }
      box = [at[0] - (at[0] - box[0]) / factor, at[1] - (at[1] - box[1]) / factor,
             width, box[3] / factor];
      show();
    }
    function position(node) {
      return [Number(node.getAttribute("data-x")), Number(node.getAttribute("data-y"))];
    }
    function place(node, x, y) {
      node.setAttribute("data-x", x.toFixed(1));
      node.setAttribute("data-y", y.toFixed(1));
      node.setAttribute("transform", "translate(" + x.toFixed(1) + " " + y.toFixed(1) + ")");
      (ends[node.getAttribute("data-i")] || []).forEach(function (e) {
        for (var i = 0; i < e.lines.length; i++) {
          e.lines[i].setAttribute("x" + e.end, x.toFixed(1));
          e.lines[i].setAttribute("y" + e.end, y.toFixed(1));
        }
      });
    }
    var nodes = svg.querySelectorAll("g.node");
    var start = [];
    for (var i = 0; i < nodes.length; i++) { start.push(position(nodes[i])); }
    var press = null, dragged = false;
    svg.addEventListener("pointerdown", function (ev) {
      if (ev.button !== 0) { return; }
      var node = ev.target instanceof Element ? ev.target.closest("g.node") : null;
      press = { id: ev.pointerId, x: ev.clientX, y: ev.clientY, node: node,
                from: node ? position(node) : box.slice(), moved: false };
    });
    svg.addEventListener("pointermove", function (ev) {
      if (!press || ev.pointerId !== press.id) { return; }
      var dx = ev.clientX - press.x, dy = ev.clientY - press.y;
      if (!press.moved) {
        if (dx * dx + dy * dy < 16) { return; }
        press.moved = true;
        svg.setPointerCapture(ev.pointerId);
        svg.classList.add("grabbing");
      }
      var s = scale();
      if (press.node) { place(press.node, press.from[0] + dx * s, press.from[1] + dy * s); }
      else { box[0] = press.from[0] - dx * s; box[1] = press.from[1] - dy * s; show(); }
    });
    function release(ev) {
      if (!press || ev.pointerId !== press.id) { return; }
      dragged = press.moved;
      press = null;
      svg.classList.remove("grabbing");
      setTimeout(function () { dragged = false; }, 0);
    }
    svg.addEventListener("pointerup", release);
    svg.addEventListener("pointercancel", release);
    svg.addEventListener("click", function (ev) {  // the click that ends a drag does nothing
      if (dragged) { ev.preventDefault(); ev.stopPropagation(); dragged = false; }
    }, true);
    svg.addEventListener("wheel", function (ev) {
      ev.preventDefault();
      zoom(ev.deltaY < 0 ? 1.25 : 0.8, toGraph(ev));
    }, { passive: false });
    var tools = svg.parentNode.querySelector(".graphtools");
    if (!tools) { return; }
    Array.prototype.forEach.call(tools.querySelectorAll("button.g-zoom"), function (button) {
      button.addEventListener("click", function () {
        var factor = Number(button.getAttribute("data-zoom"));
        if (factor > 0) { zoom(factor, [box[0] + box[2] / 2, box[1] + box[3] / 2]); }
      });
    });
    var reset = tools.querySelector("button.g-reset");
    if (reset) {
      reset.addEventListener("click", function () {
        box = home.slice();
        show();
        for (var j = 0; j < nodes.length; j++) { place(nodes[j], start[j][0], start[j][1]); }
      });
    }
  }
  // The names a graph node stands for (one, or several identical submissions).
  function namesOf(node) {
    var names = [];
    try { names = JSON.parse(node.getAttribute("data-members") || "[]"); } catch (e) { names = []; }
    if (!Array.isArray(names) || !names.length) { names = [node.getAttribute("data-name") || ""]; }
    return names.filter(function (n) { return typeof n === "string"; });
  }
  // The name filter of a node: each name quoted (as JSON writes a string), matched exactly.
  function nodeFilter(node) {
    return { name: namesOf(node).map(function (n) { return JSON.stringify(n); }).join(" ") };
  }

  // ---------------------------------------------------------------- events
  document.addEventListener("click", function (ev) {
    var t = ev.target;
    if (!(t instanceof Element)) { return; }
    var node = t.closest("g.node[data-name], button.show-name");
    if (node && table) {
      showPairsOf(node.matches("g.node") ? nodeFilter(node) : { name: '"' + node.getAttribute("data-name") + '"' });
      return;
    }
    var cluster = t.closest("button.show-cluster");
    if (cluster && table) { showPairsOf({ cluster: cluster.getAttribute("data-cluster") }); return; }
    if (t.closest("select, input, button, a")) { return; }
    if (window.getSelection && String(window.getSelection()).length > 0) { return; }
    activatePassage(t);
  });
  document.addEventListener("keydown", function (ev) {
    var t = ev.target;
    if (!(t instanceof Element) || t.closest("select, input")) { return; }
    if (ev.key === "Enter" && t.matches("g.node[data-name]") && table) {
      showPairsOf(nodeFilter(t));
      ev.preventDefault();
    } else if ((ev.key === "Enter" || ev.key === " ") && activatePassage(t)) {
      ev.preventDefault();
    }
  });
  document.addEventListener("change", function (ev) {
    var holder = ev.target instanceof Element && ev.target.closest("[data-rank]");
    if (holder && ev.target.matches("select.mk, input.nt")) { saveMark(holder); }
  });
  document.addEventListener("input", function (ev) {
    var holder = ev.target instanceof Element && ev.target.closest("[data-rank]");
    if (holder && ev.target.matches("input.nt")) { saveMark(holder); }
  });
  window.addEventListener("storage", function () { marks = load("marks"); showAllMarks(); });

  showAllMarks();
  if (table) { setUpTable(); }
  Array.prototype.forEach.call(document.querySelectorAll("svg.graph"), setUpGraph);
  linkNeighbours();
})();
