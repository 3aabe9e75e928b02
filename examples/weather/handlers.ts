/**
 * The weather example's handlers: deterministic made-up data, so the example runs offline and tests can check it.
 * `ServerHandlers` comes from the generated stub: a missing handler, a wrong input use or a wrong
 * `structuredContent` is a compile error.
 */
import type { ServerHandlers } from "./generated/index.ts";

const STATIONS = [
  { city: "Paris", lat: 48.86, lon: 2.35 },
  { city: "Oslo", lat: 59.91, lon: 10.75 },
  { city: "Lima", lat: -12.05, lon: -77.04 },
];

const CONDITIONS = ["sunny", "cloudy", "rain", "snow"] as const;

/** A stable pseudo-temperature from the city name and day offset. */
function baseTemperature(city: string, day: number): number {
  let hash = 0;
  for (const ch of city.toLowerCase()) hash = (hash * 31 + ch.charCodeAt(0)) % 997;
  return (hash % 25) + day;
}

const toFahrenheit = (celsius: number) => Math.round((celsius * 9) / 5 + 32);

export const handlers: ServerHandlers = {
  tools: {
    get_forecast({ city, days = 3, units = "metric" }) {
      const forecast = Array.from({ length: days }, (_, i) => {
        const high = baseTemperature(city, i) + 5;
        const low = high - 8;
        const convert = units === "metric" ? (t: number) => t : toFahrenheit;
        return {
          date: new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10),
          high: convert(high),
          low: convert(low),
          conditions: CONDITIONS[(baseTemperature(city, i) + i) % CONDITIONS.length]!,
        };
      });
      return { structuredContent: { city, units, days: forecast } };
    },
    get_alerts({ region }) {
      const alerts =
        region === "NO"
          ? [
              {
                severity: "moderate" as const,
                headline: "Heavy snow in the mountains",
                expires: "2026-01-02T18:00:00Z",
              },
            ]
          : [];
      return { structuredContent: { alerts } };
    },
    convert_temperature({ value, to }) {
      const converted = to === "fahrenheit" ? (value * 9) / 5 + 32 : ((value - 32) * 5) / 9;
      return {
        content: [{ type: "text", text: `${Math.round(converted * 10) / 10}°${to === "fahrenheit" ? "F" : "C"}` }],
      };
    },
  },
  resources: {
    "weather://stations": (uri) => ({
      contents: [{ uri, mimeType: "application/json", text: JSON.stringify(STATIONS) }],
    }),
  },
  resourceTemplates: {
    current_conditions: ({ city }, uri) => ({
      contents: [
        { uri, mimeType: "application/json", text: JSON.stringify({ city, temperature: baseTemperature(city, 0) }) },
      ],
    }),
  },
  prompts: {
    plan_trip: ({ city, activity }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text: `Plan a day in ${city}${activity ? ` around ${activity}` : ""}. Check get_forecast first.`,
          },
        },
      ],
    }),
  },
  completions: {
    prompts: {
      plan_trip: {
        city: (value) => STATIONS.map((s) => s.city).filter((c) => c.toLowerCase().startsWith(value.toLowerCase())),
      },
    },
    resourceTemplates: {
      current_conditions: {
        city: (value) => STATIONS.map((s) => s.city).filter((c) => c.toLowerCase().startsWith(value.toLowerCase())),
      },
    },
  },
};
