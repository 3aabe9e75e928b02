/**
 * The apps example's handlers: the weather example's made-up, deterministic forecast (so the example runs offline and
 * tests can check what the view shows), the hourly detail only the forecast view calls, and a summary for the model.
 */
import type { ServerHandlers } from "./generated/index.ts";

const CONDITIONS = ["sunny", "cloudy", "rain", "snow"] as const;

/** A stable pseudo-temperature from the city name and day offset. */
function baseTemperature(city: string, day: number): number {
  let hash = 0;
  for (const ch of city.toLowerCase()) hash = (hash * 31 + ch.charCodeAt(0)) % 997;
  return (hash % 25) + day;
}

const toFahrenheit = (celsius: number) => Math.round((celsius * 9) / 5 + 32);
const inUnits = (units: "metric" | "imperial", celsius: number) =>
  units === "metric" ? celsius : toFahrenheit(celsius);
const dateOf = (day: number) => new Date(Date.UTC(2026, 0, 1 + day)).toISOString().slice(0, 10);

export const handlers: ServerHandlers = {
  tools: {
    get_forecast({ city, days = 3, units = "metric" }) {
      const forecast = Array.from({ length: days }, (_, i) => {
        const high = baseTemperature(city, i) + 5;
        return {
          date: dateOf(i),
          high: inUnits(units, high),
          low: inUnits(units, high - 8),
          conditions: CONDITIONS[(baseTemperature(city, i) + i) % CONDITIONS.length]!,
        };
      });
      const text = forecast.map((d) => `${d.date}: ${d.low}..${d.high}, ${d.conditions}`).join("\n");
      return { content: [{ type: "text", text }], structuredContent: { city, units, days: forecast } };
    },
    get_hourly({ city, date, units = "metric" }) {
      const day = Math.max(0, Math.round((Date.parse(date) - Date.UTC(2026, 0, 1)) / 86_400_000));
      const low = baseTemperature(city, day) - 3;
      // Coldest before dawn, warmest mid-afternoon: a rise of 8 degrees over the day.
      const hours = [0, 3, 6, 9, 12, 15, 18, 21].map((hour) => ({
        hour,
        temperature: inUnits(units, low + Math.round(8 * Math.sin((Math.PI * Math.max(0, hour - 5)) / 20))),
      }));
      return { structuredContent: { city, date, hours } };
    },
    summarize_week({ city }) {
      const highs = Array.from({ length: 7 }, (_, i) => baseTemperature(city, i) + 5);
      return { content: [{ type: "text", text: `${city}: highs ${Math.min(...highs)} to ${Math.max(...highs)}°C` }] };
    },
  },
};
