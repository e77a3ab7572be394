# The service image for docker-compose.yml. `npm start` runs the TypeScript sources with tsx.
FROM node:20-slim
WORKDIR /app
# Dependencies first, so a source change does not reinstall them.
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
ENV PORT=3000
EXPOSE 3000
CMD ["npm", "start"]
