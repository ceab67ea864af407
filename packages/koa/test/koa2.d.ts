// The Koa 2 alias (npm:koa@^2) is typed like Koa 3: the harness only uses the shared API.
declare module 'koa2' {
  import Koa from 'koa';
  export default Koa;
}
