#!/usr/bin/env node
// A minimal cardref bot in Node.js: takes one seat and plays the first legal
// action until the match ends. The guide is docs/bots.md.
//
// Needs the npm packages @grpc/grpc-js and @grpc/proto-loader (Debian 12
// packages neither): `npm install @grpc/grpc-js @grpc/proto-loader` in your
// bot's folder. No generated code: the .proto files are loaded at start
// (--proto_dir, default the repository's proto/ folder beside docs/).
//
//   node docs/examples/minimal_bot.js --server=localhost:50051 --match_id=ID --seat=0
//
// Flags left out come from the environment cardref_tournament sets
// (CARDREF_SERVER, CARDREF_MATCH_ID, CARDREF_SEAT, CARDREF_PLAYER_NAME);
// an invited seat's ticket only from CARDREF_JOIN_TICKET. Unknown flags are
// ignored: a newer runner's flag is no reason to forfeit a match.
"use strict";

const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

function parseFlags(argv) {
  const env = process.env;
  const flags = {
    server: env.CARDREF_SERVER || "localhost:50051",
    match_id: env.CARDREF_MATCH_ID || "",
    game: "craits",
    seat: env.CARDREF_SEAT !== undefined ? Number(env.CARDREF_SEAT) : -1,
    name: env.CARDREF_PLAYER_NAME || "minimal_js",
    proto_dir: path.join(__dirname, "..", "..", "proto"),
  };
  const unknown = [];
  for (const arg of argv) {
    const m = /^--([a-z_]+)=(.*)$/.exec(arg);
    if (m && m[1] in flags) {
      flags[m[1]] = m[1] === "seat" ? Number(m[2]) : m[2];
    } else {
      unknown.push(arg);
    }
  }
  if (unknown.length) {
    console.error(`minimal_bot.js: ignoring ${unknown.join(" ")}`);
  }
  return flags;
}

// "FAILED_PRECONDITION: seat 1 was made absent ..." rather than "9".
function describe(error) {
  const name = Object.keys(grpc.status).find((k) => grpc.status[k] === error.code);
  return `${name || error.code}: ${error.details}`;
}

// Calls a unary method as a promise, with a 10 s deadline.
function call(client, method, request) {
  return new Promise((resolve, reject) => {
    client[method](request, { deadline: Date.now() + 10000 }, (error, response) =>
      error ? reject(error) : resolve(response));
  });
}

async function main() {
  const flags = parseFlags(process.argv.slice(2));
  const definition = protoLoader.loadSync("cardref/v1/referee.proto", {
    includeDirs: [flags.proto_dir],
    keepCase: true,   // field names as in the .proto files: seat_to_act
    longs: String,    // uint64 versions as strings: sent back unchanged
    enums: String,    // MATCH_STATUS_FINISHED rather than 4
    defaults: true,
  });
  const { Referee } = grpc.loadPackageDefinition(definition).cardref.v1;
  const client = new Referee(flags.server, grpc.credentials.createInsecure());

  const ticket = process.env.CARDREF_JOIN_TICKET || "";
  const join = {
    match_id: flags.match_id,
    game: flags.game,
    ticket,
    // An invited seat plays under the organiser's name for it.
    player_name: ticket ? "" : flags.name,
    player_version: "minimal_bot.js 1",
  };
  if (flags.seat >= 0) join.seat = flags.seat;
  const joined = await call(client, "JoinMatch", join);
  const seat = { match_id: joined.match_id, seat: joined.seat, token: joined.token };

  let last = null;
  let sequence = 0;
  let answering = Promise.resolve();
  await new Promise((resolve, reject) => {
    // One message each time this seat must act, and one at the end.
    const stream = client.WatchObservations(seat);
    stream.on("data", (obs) => {
      last = obs;
      if (obs.seat_to_act !== joined.seat || obs.legal_actions.length === 0) return;
      const request = {
        ...seat,
        // The notation alone is enough ("play 8S:H", "draw").
        action: { notation: obs.legal_actions[0].notation },
        decision_version: obs.version,  // never applied to a later decision
        sequence: ++sequence,           // a resend is answered, not re-applied
        omit_observation: true,         // the stream brings the next decision
      };
      answering = answering
        .then(() => call(client, "SubmitAction", request))
        .catch((error) => {
          // The message names the rule broken or what was expected.
          console.error(`seat ${joined.seat}: '${request.action.notation}' ` +
                        `refused: ${describe(error)}`);
        });
    });
    stream.on("end", resolve);
    stream.on("error", reject);
  });
  await answering;
  client.close();
  const finished = last !== null && last.status === "MATCH_STATUS_FINISHED";
  console.log(`${joined.match_id} seat ${joined.seat}: ` +
              `${finished ? "finished" : "ended"}, scores ` +
              `[${last && last.result ? last.result.scores.join(", ") : ""}]`);
  return finished ? 0 : 1;
}

main().then((code) => { process.exitCode = code; }, (error) => {
  console.error(`minimal_bot.js: ${error.code !== undefined ? describe(error) : error}`);
  process.exitCode = 1;
});
