// yaml, as Cookie imports it: bundled into one file by the build like ./zod.ts (35–40 ms to load as its ~70
// modules, 20 bundled; spec files are YAML before anything else runs). Every module of Cookie imports yaml from
// here (test/unit/vendor.test.ts).

/** yaml's `parse` (YAML text → value) and the error it throws for malformed text: https://eemeli.org/yaml. */
export { parse, YAMLParseError } from 'yaml';
