// The part of npm-package-arg (npm's own dependency-spec parser) that dependencies.ts uses; the package
// ships no types and @types/npm-package-arg describes a much older version.
declare module 'npm-package-arg' {
  interface Result {
    type: 'git' | 'tag' | 'version' | 'range' | 'file' | 'directory' | 'remote' | 'alias';
    name: string | null;
    rawSpec: string;
    fetchSpec: string | null;
    registry?: boolean;
    subSpec?: Result;
  }
  function npa(arg: string, where?: string): Result;
  namespace npa {
    function resolve(name: string, spec: string, where?: string): Result;
  }
  export default npa;
}
