import type { AgentCardInput, AgentExecutor } from '@a2a/core';

export const JOKE = 'Why did the chicken cross the road? To get to the other side!';

/** A deterministic agent for the golden wire tests: the reply depends only on the first message text. */
export const goldenExecutor: AgentExecutor = {
  async execute(ctx) {
    const text = ctx.message.parts[0]?.text ?? '';
    if (ctx.task && text.startsWith('I want to fly')) {
      // Leave INPUT_REQUIRED first: a blocking send returns at the first interrupted or terminal state it sees.
      await ctx.working('Searching flights');
      await ctx.artifact({
        artifactId: 'itinerary',
        name: 'FlightItinerary.json',
        parts: [{ data: { confirmationId: 'XYZ123', from: 'JFK', to: 'LHR' } }],
      });
      return ctx.complete("Okay, I've found a flight for you. Confirmation XYZ123. Details are in the artifact.");
    }
    if (text === 'tell me a joke') {
      await ctx.artifact({ artifactId: 'joke', name: 'joke', text: JOKE });
      return ctx.complete();
    }
    if (text === 'joke please') return ctx.reply(JOKE);
    if (text === "I'd like to book a flight.") {
      return ctx.inputRequired('Sure, I can help with that! Where would you like to fly to, and from where?');
    }
    if (text.startsWith('write a long paper')) {
      for (let i = 1; i <= 3; i++) {
        await ctx.artifact({ artifactId: 'paper', text: `<section ${i}...>`, append: i > 1, lastChunk: i === 3 });
      }
      return ctx.complete();
    }
    if (text.startsWith('Analyze this image')) {
      await ctx.artifact({
        artifactId: 'image',
        name: 'processed_image_with_faces.png',
        parts: [
          { url: 'https://storage.example.com/processed/output.png', filename: 'output.png', mediaType: 'image/png' },
        ],
      });
      return ctx.complete();
    }
    if (text.startsWith('Generate the Q1 sales report')) {
      await ctx.working('generating');
      return;
    }
    await ctx.artifact({ artifactId: 'echo', text });
    return ctx.complete();
  },
};

export const goldenCard: AgentCardInput = {
  name: 'Golden agent',
  description: 'Deterministic agent for wire tests',
  version: '1.0.0',
  capabilities: { streaming: true, pushNotifications: true },
  defaultInputModes: ['text/plain', 'image/png'], // the recorded v0.3 clients send PNG files
  defaultOutputModes: ['text/plain', 'application/json'],
  skills: [{ id: 'joke', name: 'Jokes', description: 'Tells jokes', tags: ['fun'] }],
};
