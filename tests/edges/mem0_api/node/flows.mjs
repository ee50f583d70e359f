// The npm mem0ai client's flows against /mem0: run by tests/mem0_api/test_node_client.py with
// MEM0_HOST, MEM0_TOKEN and MEM0_TELEMETRY=false (the client reads it as lower-case "false").
// Prints one JSON line of what it saw; any failed expectation exits non-zero.
import assert from "node:assert/strict";
import {
  AuthenticationError,
  MemoryClient,
  MemoryNotFoundError,
  ValidationError,
} from "mem0ai";

const host = process.env.MEM0_HOST;
const client = new MemoryClient({ apiKey: process.env.MEM0_TOKEN, host });
await client.ping();
const seen = { projectId: client.projectId };

const added = await client.add("I drink green tea every morning.", {
  user_id: "alice",
  infer: false,
});
assert.equal(added.results[0].event, "ADD");
const id = added.results[0].id;

const queued = await client.add(
  [{ role: "user", content: "以后所有技术方案都使用简体中文，项目叫“Poco”。" }],
  { user_id: "alice" },
);
assert.equal(queued.results[0].status, "PENDING");
seen.eventId = queued.results[0].eventId;

const listed = await client.getAll({ filters: { user_id: "alice" }, page: 1, pageSize: 10 });
assert.equal(listed.count, 1);
assert.equal(listed.results[0].id, id);

const found = await client.search("green tea", { filters: { user_id: "alice" }, topK: 3 });
assert.deepEqual(
  found.results.map((r) => r.id),
  [id],
);

assert.equal((await client.get(id)).memory, "I drink green tea every morning.");
const updated = await client.update(id, { text: "I drink oolong tea every morning." });
assert.equal(updated.memory, "I drink oolong tea every morning.");
assert.deepEqual(
  (await client.history(id)).map((h) => h.event),
  ["ADD", "UPDATE"],
);
const batch = await client.batchUpdate([{ memoryId: id, text: "I drink white tea." }]);
assert.equal(batch.message, "Successfully updated 1 memories");

await assert.rejects(
  client.search("tea", { filters: { AND: [{ user_id: "alice" }, { agent_id: "planner" }] } }),
  (error) => error instanceof ValidationError && /agent_id/.test(error.message),
);
await assert.rejects(
  client.add("My OpenAI key is sk-proj-4fJ8kLm2Qx9Rt7Vb3Nc6Wz1Yp5Hd0Sg", {
    user_id: "alice",
    infer: false,
  }),
  (error) => error instanceof ValidationError && /refused by admission/.test(error.message),
);
const stranger = new MemoryClient({ apiKey: "not-a-token", host });
stranger.initialized.catch(() => {}); // its constructor's ping fails too; the call below says so
await assert.rejects(stranger.ping(), AuthenticationError);

const second = (await client.add("I run on Sundays.", { user_id: "alice", infer: false }))
  .results[0].id;
assert.equal((await client.delete(id)).message, "Memory deleted successfully!");
await assert.rejects(client.get(id), MemoryNotFoundError);
const removed = await client.batchDelete([second]);
assert.equal(removed.message, "Successfully deleted 1 memories");
await client.add("Bob likes chess.", { user_id: "bob", infer: false });
assert.equal((await client.deleteAll({ userId: "bob" })).message, "Memories deleted successfully!");
assert.equal((await client.getAll({ filters: { user_id: "bob" } })).count, 0);

console.log(JSON.stringify({ ok: true, ...seen }));
