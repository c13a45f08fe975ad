// The previous framework majors are installed under npm aliases (package.json devDependencies)
// so the adapter conformance suite runs on each. Express 4 and Koa 2 ship no types of their
// own: the tests use them through the current major's types, which describe what they use.
declare module 'express4' {
  import express from 'express';
  export default express;
}
declare module 'koa2' {
  import Koa from 'koa';
  export default Koa;
}
