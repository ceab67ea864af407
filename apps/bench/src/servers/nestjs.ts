import 'reflect-metadata';
import type { Server } from 'node:http';
import { A2AModule } from '@a2a/nestjs';
import { Body, Controller, Get, HttpCode, Module, Post, Query } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type BenchOptions, createBenchA2A, MEM_PATH, memFigures, RAW_PATH, rawEcho } from '../bench-a2a.js';
import { listen } from './listen.js';

/** The raw JSON route and the memory figures as a Nest controller (decorators applied by hand: no decorator build). */
class RawController {
  echo(body: unknown) {
    return rawEcho(body);
  }
  mem(gc?: string) {
    return memFigures(gc === '1');
  }
}
const method = (name: 'echo' | 'mem') =>
  Object.getOwnPropertyDescriptor(RawController.prototype, name) as PropertyDescriptor;
Post(RAW_PATH)(RawController.prototype, 'echo', method('echo'));
HttpCode(200)(RawController.prototype, 'echo', method('echo'));
Body()(RawController.prototype, 'echo', 0);
Get(MEM_PATH)(RawController.prototype, 'mem', method('mem'));
Query('gc')(RawController.prototype, 'mem', 0);
Controller()(RawController);

/** NestJS 12 on its Express platform (body parser on) with the raw route and @a2a/nestjs, the way a user would. */
export async function startNestjs(port: number, host: string, options: BenchOptions): Promise<Server> {
  class BenchModule {}
  Module({ imports: [A2AModule.forRoot({ handler: createBenchA2A(options) })], controllers: [RawController] })(
    BenchModule,
  );
  const app = await NestFactory.create(BenchModule, { logger: false });
  await app.init();
  return listen(app.getHttpServer(), port, host);
}
