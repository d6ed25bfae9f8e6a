#!/usr/bin/env python3
"""fake_server.py: an OpenAI-compatible chat-completions server for the LLM
policy's tests.  Binds 127.0.0.1 on an ephemeral port, prints the port (and
writes it to PORT_FILE), and replays recorded answers: a POST to
/s/<scenario>/v1/chat/completions gets the scenario's next step from
SCENARIOS (JSON: name -> list of steps; the last step repeats).  Every
request is logged to LOG as one JSON line before it is answered, so tests
count tries there.  Standard library only; loopback only.

A step may have:
  replies: [file, ...]   choices' contents (files in REPLIES), cycled up to n
  max_choices: k         at most k choices whatever n asks (a server that ignores n)
  reject_n: true         400 when n > 1
  status, body, headers  a plain answer (body: text)
  raw / raw_file         the body as it is, content_type beside it
  delay: seconds         wait before answering
  oversize: bytes        a valid completion of about that many bytes
  echo_key: true         401 whose message repeats the key it was sent
  key_in_reply: true     the replies' "@KEY@" replaced by the key it was sent
  cut: true              a Content-Length larger than what is sent, then close
  finish_reason, parts   the choices' finish_reason; content as a list of parts
Usage: fake_server.py SCENARIOS REPLIES LOG PORT_FILE
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SCENARIOS = {}
REPLIES = ""
LOG = ""
EXPECTED_KEY = os.environ.get("FAKE_LLM_EXPECTED_KEY", "")
lock = threading.Lock()
counters = {}


def log(entry):
    with lock:
        with open(LOG, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry, sort_keys=True) + "\n")
            f.flush()


def read_reply(name):
    with open(os.path.join(REPLIES, name), encoding="utf-8") as f:
        return f.read()


def completion(step, n, model, key=""):
    files = step.get("replies", ["normal.md"])
    count = min(n, step.get("max_choices", n))
    choices = []
    for i in range(count):
        text = read_reply(files[i % len(files)])
        if step.get("key_in_reply"):
            text = text.replace("@KEY@", key)
        content = [{"type": "text", "text": text}] if step.get("parts") else text
        choices.append({"index": i, "finish_reason": step.get("finish_reason", "stop"),
                        "message": {"role": "assistant", "content": content}})
    return {"id": "chatcmpl-test", "object": "chat.completion", "created": 0,
            "model": model, "choices": choices,
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # quiet: the log file says what happened
        pass

    def answer(self, status, body, content_type="application/json", headers=None, length=None):
        data = body.encode("utf-8") if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data) if length is None else length))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def do_POST(self):
        parts = self.path.strip("/").split("/")
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length) if length > 0 else b""
        if len(parts) != 5 or parts[0] != "s" or parts[3:] != ["chat", "completions"] \
                or parts[1] not in SCENARIOS:
            log({"path": self.path, "status": 404})
            self.answer(404, json.dumps({"error": {"message": "no such scenario"}}))
            return
        name = parts[1]
        try:
            request = json.loads(raw)
            messages = request["messages"]
            ok_request = (isinstance(messages, list) and len(messages) == 2
                          and messages[0]["role"] == "system" and messages[1]["role"] == "user")
        except (ValueError, KeyError, TypeError, IndexError):
            request, messages, ok_request = {}, [], False
        with lock:
            index = counters.get(name, 0)
            counters[name] = index + 1
        steps = SCENARIOS[name]
        step = steps[min(index, len(steps) - 1)]
        auth = self.headers.get("Authorization")
        if auth is None:
            auth_state = "none"
        elif EXPECTED_KEY and auth == "Bearer " + EXPECTED_KEY:
            auth_state = "ok"
        else:
            auth_state = "wrong"
        n = request.get("n", 1) if isinstance(request, dict) else 1
        entry = {"scenario": name, "index": index, "n": n, "auth": auth_state,
                 "model": request.get("model") if isinstance(request, dict) else None,
                 "well_formed": ok_request,
                 "prompt_has_kernel": ok_request and "__global__" in messages[1]["content"]}
        if not ok_request:
            entry["status"] = 400
            log(entry)
            self.answer(400, json.dumps({"error": {"message": "bad request"}}))
            return
        status = step.get("status", 200)
        if step.get("reject_n") and n > 1:
            status = 400
        if step.get("echo_key"):
            status = 401
        entry["status"] = status
        log(entry)
        time.sleep(step.get("delay", 0))
        if step.get("reject_n") and n > 1:
            self.answer(400, json.dumps({"error": {"message": "n > 1 is not supported"}}))
        elif step.get("echo_key"):
            sent = (auth or "")[len("Bearer "):]
            self.answer(401, json.dumps({"error": {
                "message": "Incorrect API key provided: %s. Check your key." % sent,
                "type": "invalid_request_error", "code": "invalid_api_key"}}))
        elif "raw" in step or "raw_file" in step:
            body = step["raw"] if "raw" in step else read_reply(step["raw_file"])
            self.answer(status, body, step.get("content_type", "application/json"))
        elif "body" in step:
            self.answer(status, step["body"], step.get("content_type", "application/json"),
                        step.get("headers"))
        elif "oversize" in step:
            filler = "x" * step["oversize"]
            body = completion(step, 1, entry["model"])
            body["choices"][0]["message"]["content"] = filler
            self.answer(status, json.dumps(body))
        elif step.get("cut"):
            body = json.dumps(completion(step, n, entry["model"])).encode("utf-8")
            self.answer(status, body[: len(body) // 2], length=len(body))
            self.close_connection = True
        else:
            self.answer(status, json.dumps(completion(step, n, entry["model"],
                                                      (auth or "")[len("Bearer "):])),
                        headers=step.get("headers"))


def main():
    global SCENARIOS, REPLIES, LOG
    if len(sys.argv) != 5:
        sys.stderr.write(__doc__)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        SCENARIOS = json.load(f)
    REPLIES, LOG, port_file = sys.argv[2], sys.argv[3], sys.argv[4]
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    port = server.server_address[1]
    with open(port_file + ".tmp", "w", encoding="utf-8") as f:
        f.write("%d\n" % port)
    os.rename(port_file + ".tmp", port_file)
    print(port, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
