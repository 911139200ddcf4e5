// The Khronos glTF validator (npm gltf-validator) on each file given: one JSON report per
// line, in order. Usage: node gltf_validate.js MODULE_DIR FILE.glb...
const fs = require("fs");
const validator = require(process.argv[2]);

(async () => {
  for (const file of process.argv.slice(3)) {
    const data = new Uint8Array(fs.readFileSync(file));
    const report = await validator.validateBytes(data, { maxIssues: 100 });
    process.stdout.write(JSON.stringify(report) + "\n");
  }
})().catch((error) => { process.stderr.write(String(error) + "\n"); process.exit(1); });
