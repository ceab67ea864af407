// The Express 4 alias (npm:express@^4.21) is typed like Express 5: the harness only uses the shared API.
declare module 'express4' {
  import express from 'express';
  export default express;
}
