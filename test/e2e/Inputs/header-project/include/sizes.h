#pragma once
constexpr int N = 1 << 20;
