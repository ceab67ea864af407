import 'reflect-metadata';
import type { Server } from 'node:http';
import { type HarnessStartOptions, listen, testCaller } from '@a2a/adapter-testsuite';
import type { MountableHandler } from '@a2a/core';
import fastifyCompress from '@fastify/compress';
import { Controller, type DynamicModule, Get, Header, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import compression from 'compression';
import { A2AModule } from '../src/index.js';

export type Platform = 'express' | 'fastify';

/** The suite's module: its handler under the suite's mount path, the caller from `x-test-user`. */
export const suiteModule = (a2a: MountableHandler, mountPath: string) =>
  A2AModule.forRoot({
    handler: a2a,
    path: mountPath,
    trustProxy: true,
    context: (req) => testCaller(req.headers['x-test-user']),
  });

/** A Nest app on either platform: the A2A module first, then the app's own module with `GET {mountPath}/host-route`. */
export async function startNest(
  platform: Platform,
  o: Pick<HarnessStartOptions, 'mountPath' | 'bodyParser' | 'compression'>,
  a2aModule: DynamicModule,
) {
  class HostController {
    host() {
      return 'host';
    }
  }
  const descriptor = Object.getOwnPropertyDescriptor(HostController.prototype, 'host') as PropertyDescriptor;
  Get('host-route')(HostController.prototype, 'host', descriptor);
  Header('content-type', 'text/plain')(HostController.prototype, 'host', descriptor);
  Controller(o.mountPath)(HostController);
  class HostModule {}
  Module({ controllers: [HostController] })(HostModule);
  class AppModule {}
  Module({ imports: [a2aModule, HostModule] })(AppModule);
  // abortOnError: a setup error rejects (the tests check them) instead of ending the process.
  const nestOptions = { bodyParser: o.bodyParser, logger: false as const, abortOnError: false };
  let app: INestApplication;
  if (platform === 'express') {
    app = await NestFactory.create(AppModule, new ExpressAdapter(), nestOptions);
    if (o.compression) app.use(compression());
  } else {
    const fastify = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), nestOptions);
    if (o.compression) await fastify.register(fastifyCompress as never);
    app = fastify;
  }
  await app.listen(0, '127.0.0.1');
  const { url, close } = await listen(app.getHttpServer() as Server, { stop: () => app.close() });
  return { baseUrl: url, app, close };
}
