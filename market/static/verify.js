// The public certificate check (templates/verify.html), done again in the browser with
// WebCrypto, trusting nothing the server computed: the verification code names the
// issuing event's hash; its leaf (RFC 9162: SHA-256(0x00 || hash)) and the inclusion path
// give the tree's root, which must be the one in the checkpoint note; the note's Ed25519
// signature must verify under the key. The result is written in words in #browser-check
// (data-result "pass" or "fail").
(function () {
  "use strict";

  function hexBytes(hex) {
    if (!/^([0-9a-f]{2})+$/.test(hex)) { throw new Error("not lowercase hex: " + hex); }
    var out = new Uint8Array(hex.length / 2);
    for (var i = 0; i < out.length; i++) { out[i] = parseInt(hex.substr(i * 2, 2), 16); }
    return out;
  }

  function b64Bytes(text) {
    var raw = atob(text);
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { out[i] = raw.charCodeAt(i); }
    return out;
  }

  function hex(bytes) {
    return Array.prototype.map.call(bytes, function (b) {
      return b.toString(16).padStart(2, "0");
    }).join("");
  }

  function sha256(prefix, parts) {
    var size = 1 + parts.reduce(function (n, p) { return n + p.length; }, 0);
    var data = new Uint8Array(size);
    data[0] = prefix;
    var at = 1;
    parts.forEach(function (p) { data.set(p, at); at += p.length; });
    return crypto.subtle.digest("SHA-256", data).then(function (d) { return new Uint8Array(d); });
  }

  // RFC 9162 section 2.1.3.2: the root from a leaf, its index, the tree size and the path.
  async function rootFromPath(leaf, index, size, path) {
    if (index < 0 || index >= size) { return null; }
    var fn = index, sn = size - 1, r = leaf;
    for (var i = 0; i < path.length; i++) {
      var p = path[i];
      if (sn === 0) { return null; }
      if (fn % 2 === 1 || fn === sn) {
        r = await sha256(1, [p, r]);
        if (fn % 2 === 0) {
          while (fn !== 0 && fn % 2 === 0) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
        }
      } else {
        r = await sha256(1, [r, p]);
      }
      fn = Math.floor(fn / 2); sn = Math.floor(sn / 2);
    }
    return sn === 0 ? r : null;
  }

  async function signatureHolds(key, note, signature) {
    var publicKey;
    try {
      publicKey = await crypto.subtle.importKey("raw", b64Bytes(key), { name: "Ed25519" }, false, ["verify"]);
    } catch (e) {
      return null;  // this browser's WebCrypto has no Ed25519
    }
    return crypto.subtle.verify({ name: "Ed25519" }, publicKey, b64Bytes(signature),
      new TextEncoder().encode(note));
  }

  async function check(data) {
    var steps = [];
    var proof = data.proof, checkpoint = proof.checkpoint, event = data.event;
    var codeHolds = data.code === event.seq + "-" + event.hash.slice(0, 16);
    steps.push([codeHolds, codeHolds
      ? "The verification code names ledger event " + event.seq + ", whose hash begins " + event.hash.slice(0, 16) + "."
      : "The verification code does not name this event."]);
    var lines = checkpoint.note.split("\n");
    var size = parseInt(lines[1], 10);
    var noteRoot = hex(b64Bytes(lines[2]));
    var leaf = await sha256(0, [hexBytes(event.hash)]);
    var leafHolds = hex(leaf) === proof.leaf_hash && proof.leaf_index === event.seq - 1;
    steps.push([leafHolds, leafHolds
      ? "Its leaf hash, SHA-256(0x00 || event hash), is " + hex(leaf) + "."
      : "The leaf hash given is not SHA-256(0x00 || the event's hash) at its place in the tree."]);
    var root = await rootFromPath(leaf, event.seq - 1, size, proof.path.map(hexBytes));
    var rootHolds = root !== null && hex(root) === noteRoot && noteRoot === checkpoint.root_hash;
    steps.push([rootHolds, rootHolds
      ? "The " + proof.path.length + " hashes of the path lead from that leaf to root " + noteRoot + ", the root the checkpoint of " + size + " events signs."
      : "The path does NOT lead from the leaf to the root the checkpoint signs" + (root ? " (it gives " + hex(root) + ")" : "") + "."]);
    var signed = proof.key ? await signatureHolds(proof.key.public_key, checkpoint.note, checkpoint.signature) : false;
    if (signed === null) {
      steps.push([null, "This browser cannot check Ed25519 signatures (WebCrypto has no Ed25519 here): check the checkpoint's signature with scripts/verify-proof."]);
    } else {
      steps.push([signed, signed
        ? "The checkpoint's Ed25519 signature verifies under key " + proof.key.key_id + "."
        : "The checkpoint's signature does NOT verify under the key given."]);
    }
    return steps;
  }

  function show(box, steps) {
    var list = document.getElementById("browser-check-steps");
    var failed = steps.some(function (s) { return s[0] === false; });
    var checked = steps.some(function (s) { return s[0] === true; });
    steps.forEach(function (s) {
      var item = document.createElement("li");
      item.className = s[0] === false ? "fail" : (s[0] ? "pass" : "muted");
      item.textContent = (s[0] === false ? "Fails: " : (s[0] ? "Holds: " : "Not checked: ")) + s[1];
      list.appendChild(item);
    });
    var summary = document.getElementById("browser-check-summary");
    summary.className = failed ? "fail" : (checked ? "pass" : "muted");
    summary.textContent = failed
      ? "The check FAILED in your browser: do not rely on this certificate's proof."
      : (checked ? "Checked in your browser: the ledger's signed checkpoint includes this certificate's issuing event."
        : "Not checked in this browser.");
    box.dataset.result = failed ? "fail" : (checked ? "pass" : "unchecked");
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("browser-check");
    if (!box || !box.dataset.proof) { return; }
    var data;
    try { data = JSON.parse(box.dataset.proof); } catch (e) { data = null; }
    if (data && !(window.crypto && crypto.subtle)) {
      show(box, [[null, "This browser offers no WebCrypto on this address (it needs https), so it has not checked the proof: use the files below."]]);
      return;
    }
    var run = data ? check(data) : Promise.reject(new Error("the page's proof data is unreadable"));
    run.then(function (steps) { show(box, steps); }, function (e) {
      show(box, [[false, "The browser could not check the proof: " + e.message + "."]]);
    });
  });
})();
